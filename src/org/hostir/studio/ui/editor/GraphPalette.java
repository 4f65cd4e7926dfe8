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
 * The graph page's palette: the tools (input tensor, Connect, delete, layout), the View and Arrange drawers (closed
 * as the editor opens, as GEF's drawers are) and one button per op of {@link OpKind}, one narrow column in a vertical
 * scroller (as GEF's palette is), so that the canvas keeps the width and the op entries start within the first rows
 * even at 1280 x 800 (issue 35: at 1600 x 1000 the palette ended at "Align right", every op below the fold).
 */
final class GraphPalette {
    static final String CONNECT_HINT = "Connect mode: click a tensor, then the op it feeds.  Esc or Connect leaves it.";

    final ScrolledComposite control;
    final Button connectTool;
    final Label zoomLabel;
    final PaletteDrawer view;
    final PaletteDrawer arrange;
    final int widthHint;
    private final GraphPage page;
    private final Composite palette;

    GraphPalette(Composite parent, GraphPage page) {
        this.page = page;
        control = new ScrolledComposite(parent, SWT.V_SCROLL | SWT.BORDER);
        palette = new Composite(control, SWT.NONE);
        // one column: two took about a quarter of the editor's width at 1280 x 800 and cut the graph (issue 35)
        GridLayout grid = new GridLayout(1, true);
        grid.verticalSpacing = 2;
        grid.marginWidth = 1;   // the column's width is the canvas's (issue 35)
        palette.setLayout(grid);
        // the editing tools first, then the drawers, then the ops: what a person drags onto the graph shows at once
        connectTool = tools();
        view = new PaletteDrawer(palette, "View", "Fit, zoom and Find...\n(or Ctrl+wheel, Ctrl++,\nCtrl+-, Ctrl+F)",
                this::relayout);
        zoomLabel = viewTools(view.body);
        arrange = new PaletteDrawer(palette, "Arrange", "Align and distribute\nthe selection (also the\ncontext menu's Align)",
                this::relayout);
        arrangeTools(arrange.body);
        for (OpKind kind : OpKind.values()) {
            PaletteDrop.source(button(palette, kind.fileName(), opTip(kind.fileName()), SWT.PUSH,
                    () -> page.addOpInSight(kind)), kind);
        }
        control.setContent(palette);
        control.setExpandHorizontal(true);
        control.setExpandVertical(true);
        // the column as wide as its widest entry with both drawers open and the widest zoom level shown
        view.setOpen(true);
        arrange.setOpen(true);
        view.setDetail("1000%");
        int width = palette.computeSize(SWT.DEFAULT, SWT.DEFAULT).x;
        view.setDetail("100%");
        view.setOpen(false);
        arrange.setOpen(false);
        widthHint = width + control.getVerticalBar().getSize().x + 4;
    }

    /** Shows the zoom level in the View drawer and on its header, which stays in sight while the drawer is closed. */
    void showZoom(double zoom) {
        String percent = Math.round(zoom * 100) + "%";
        zoomLabel.setText("Zoom: " + percent);
        view.setDetail(percent);
    }

    /** Lays the column out again after a drawer opened or closed, the scroller's extent following it. */
    private void relayout() {
        if (palette == null) return;
        palette.layout(true, true);
        control.setMinSize(palette.computeSize(SWT.DEFAULT, SWT.DEFAULT));
    }

    /** Input tensor, Connect (returned), Delete, Auto layout. */
    private Button tools() {
        PaletteDrop.source(button(palette, "Input tensor", "Add a fusion input tensor\n(or drag it onto the graph)",
                SWT.PUSH, page::addInputInSight), null);
        Button[] connect = new Button[1];
        connect[0] = button(palette, "Connect", "Connect mode:\nclick a tensor, then an op;\nEsc leaves it",
                SWT.TOGGLE, () -> page.setConnectMode(connect[0].getSelection()));
        button(palette, "Delete", "Delete the selection (Delete key)", SWT.PUSH, page::deleteSelection);
        button(palette, "Auto layout", "Lay the graph out left to right", SWT.PUSH, page::autoLayout);
        return connect[0];
    }

    /** Fit, the zoom buttons, the zoom label (returned) and Find..., in the View drawer. */
    private Label viewTools(Composite body) {
        button(body, "Fit", "Zoom to fit the whole graph", SWT.PUSH, page::fit);
        button(body, "Zoom 100%", "Actual size", SWT.PUSH, () -> page.setZoom(1));
        button(body, "Zoom in", "Ctrl++", SWT.PUSH, () -> page.zoom(1.25));
        button(body, "Zoom out", "Ctrl+-", SWT.PUSH, () -> page.zoom(0.8));
        Label label = new Label(body, SWT.CENTER);
        label.setToolTipText("Zoom level (Ctrl+wheel, Ctrl++, Ctrl+-)");
        label.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        label.setText("Zoom: 100%");
        button(body, "Find...", "Find a tensor or op by name (Ctrl+F)", SWT.PUSH, page::showFind);
        return label;
    }

    /** GEF Logic's alignment actions: on the node selected last, so a click then Ctrl+clicks choose the anchor. */
    private void arrangeTools(Composite body) {
        for (Arrange.Alignment a : List.of(Arrange.Alignment.LEFT, Arrange.Alignment.RIGHT, Arrange.Alignment.TOP,
                Arrange.Alignment.BOTTOM, Arrange.Alignment.CENTER, Arrange.Alignment.MIDDLE)) {
            String edge = a.label.toLowerCase(Locale.ROOT);
            button(body, "Align " + edge, "Align the selection's " + edge + (a.ordinal() % 3 == 1 ? "s" : " edges")
                    + "\non the node selected last", SWT.PUSH, () -> page.editing().align(a));
        }
        button(body, "Distribute H", "Space the selection evenly\nfrom left to right (3 or more)", SWT.PUSH,
                () -> page.editing().distribute(true));
        button(body, "Distribute V", "Space the selection evenly\nfrom top to bottom (3 or more)", SWT.PUSH,
                () -> page.editing().distribute(false));
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
