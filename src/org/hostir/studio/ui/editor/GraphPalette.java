package org.hostir.studio.ui.editor;

import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ui.editor.model.Arrange;

/**
 * The graph page's palette: the tools (input tensor, Connect, delete, layout, zoom) and one button per op of
 * {@link OpKind}, one narrow column in a vertical scroller (as GEF's palette is), so that the canvas keeps the width
 * and a short editor (1280 x 800) scrolls the palette instead of cutting it off.
 */
final class GraphPalette {
    static final String CONNECT_HINT = "Connect mode: click a tensor, then the op it feeds.  Esc or Connect leaves it.";

    final ScrolledComposite control;
    final Button connectTool;
    final Label zoomLabel;
    final int widthHint;
    private final GraphPage page;

    GraphPalette(Composite parent, GraphPage page, FusionCommands commands) {
        this.page = page;
        control = new ScrolledComposite(parent, SWT.V_SCROLL | SWT.BORDER);
        Composite palette = new Composite(control, SWT.NONE);
        // one column: two took about a quarter of the editor's width at 1280 x 800 and cut the graph (issue 35)
        GridLayout grid = new GridLayout(1, true);
        grid.verticalSpacing = 2;
        grid.marginWidth = 1;   // the column's width is the canvas's (issue 35)
        palette.setLayout(grid);
        // the tools first: with every op of OpKind below them, the ops are what scrolls on a short editor
        PaletteDrop.source(button(palette, "Input tensor", "Add a fusion input tensor\n(or drag it onto the graph)",
                SWT.PUSH, commands::addInputTensor), null);
        Button[] connect = new Button[1];
        connect[0] = button(palette, "Connect", "Connect mode:\nclick a tensor, then an op;\nEsc leaves it",
                SWT.TOGGLE, () -> page.setConnectMode(connect[0].getSelection()));
        connectTool = connect[0];
        button(palette, "Delete", "Delete the selection (Delete key)", SWT.PUSH, page::deleteSelection);
        button(palette, "Auto layout", "Lay the graph out left to right", SWT.PUSH, page::autoLayout);
        // in one column the view's tools come next, within the first rows a short editor shows; arranging after
        button(palette, "Fit", "Zoom to fit the whole graph", SWT.PUSH, page::fit);
        button(palette, "Zoom 100%", "Actual size", SWT.PUSH, () -> page.setZoom(1));
        button(palette, "Zoom in", "Ctrl++", SWT.PUSH, () -> page.zoom(1.25));
        button(palette, "Zoom out", "Ctrl+-", SWT.PUSH, () -> page.zoom(0.8));
        zoomLabel = new Label(palette, SWT.CENTER);
        zoomLabel.setToolTipText("Zoom level (Ctrl+wheel, Ctrl++, Ctrl+-)");
        zoomLabel.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        zoomLabel.setText("Zoom: 100%");
        button(palette, "Find...", "Find a tensor or op by name (Ctrl+F)", SWT.PUSH, page::showFind);
        // GEF Logic's alignment actions: on the node selected last, so a click then Ctrl+clicks choose the anchor
        for (Arrange.Alignment a : List.of(Arrange.Alignment.LEFT, Arrange.Alignment.RIGHT, Arrange.Alignment.TOP,
                Arrange.Alignment.BOTTOM, Arrange.Alignment.CENTER, Arrange.Alignment.MIDDLE)) {
            String edge = a.label.toLowerCase(Locale.ROOT);
            button(palette, "Align " + edge, "Align the selection's " + edge + (a.ordinal() % 3 == 1 ? "s" : " edges")
                    + "\non the node selected last", SWT.PUSH, () -> page.editing().align(a));
        }
        button(palette, "Distribute H", "Space the selection evenly\nfrom left to right (3 or more)", SWT.PUSH,
                () -> page.editing().distribute(true));
        button(palette, "Distribute V", "Space the selection evenly\nfrom top to bottom (3 or more)", SWT.PUSH,
                () -> page.editing().distribute(false));
        for (OpKind kind : OpKind.values()) {
            PaletteDrop.source(button(palette, kind.fileName(), opTip(kind.fileName()), SWT.PUSH,
                    () -> commands.addOp(kind, page.selectedTensors())), kind);
        }
        control.setContent(palette);
        control.setExpandHorizontal(true);
        control.setExpandVertical(true);
        var size = palette.computeSize(SWT.DEFAULT, SWT.DEFAULT);
        control.setMinSize(size);
        widthHint = size.x + control.getVerticalBar().getSize().x + 4;
    }

    /** The palette tooltip of an op: "Add an add op", "Add a matmul op", on short lines (tooltips clip). */
    static String opTip(String op) {
        String article = "aeiou".indexOf(Character.toLowerCase(op.charAt(0))) >= 0 ? "an " : "a ";
        return "Add " + article + op + " op\nreading the selected tensors\n(in selection order)";
    }

    /** A tool: it acts, then gives the keyboard back to the graph (Esc, Delete, Ctrl+- act on the graph, as in GEF). */
    private Button button(Composite parent, String text, String tip, int style, Runnable action) {
        Button b = new Button(parent, style);
        b.setText(text);
        b.setToolTipText(tip);
        b.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        b.addListener(SWT.Selection, e -> {
            action.run();
            page.viewer().canvas().setFocus();
        });
        return b;
    }
}
