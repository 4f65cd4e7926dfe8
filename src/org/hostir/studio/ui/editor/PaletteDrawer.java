package org.hostir.studio.ui.editor;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;

/**
 * A drawer of the graph palette, as GEF's PaletteDrawer: a header button that opens and closes it (a click, or Space
 * with the keyboard on it), and below it a column of tools that takes no room while it is closed, so that the op
 * entries start within the palette's first rows at 1280 x 800 (issue 35).
 */
final class PaletteDrawer {
    final Button header;
    final Composite body;
    private final String title;
    private final Runnable relayout;
    private String detail = "";

    PaletteDrawer(Composite palette, String title, String tip, Runnable relayout) {
        this.title = title;
        this.relayout = relayout;
        header = new Button(palette, SWT.TOGGLE);
        header.setToolTipText(tip);
        header.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        // the header keeps the keyboard (Tab then goes into the opened drawer), unlike the tools
        header.addListener(SWT.Selection, e -> setOpen(header.getSelection()));
        body = new Composite(palette, SWT.NONE);
        GridLayout grid = new GridLayout(1, true);
        grid.verticalSpacing = 2;
        grid.marginWidth = 0;
        grid.marginHeight = 0;
        body.setLayout(grid);
        body.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        setOpen(false);
    }

    /** Opens or closes the drawer: a closed body is hidden and excluded from the palette's layout. */
    void setOpen(boolean open) {
        header.setSelection(open);
        ((GridData) body.getLayoutData()).exclude = !open;
        body.setVisible(open);
        showTitle();
        relayout.run();
    }

    boolean isOpen() { return header.getSelection(); }

    /** A word shown after the title while the drawer is closed too (the zoom level on View's). */
    void setDetail(String text) {
        detail = text;
        showTitle();
    }

    private void showTitle() {
        header.setText((isOpen() ? "\u25BE " : "\u25B8 ") + title + (detail.isEmpty() ? "" : " " + detail));
    }
}
