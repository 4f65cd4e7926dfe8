package org.hostir.studio.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.jface.text.IDocument;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.texteditor.ITextEditor;
import org.eclipse.ui.views.contentoutline.ContentOutline;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.FusionOutlinePage;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.input.Person;

/**
 * What a fusion editor shows, read as a person reads the screen: the graph's viewer (its nodes by key, where they
 * are, what they say), the page's widgets (banner, Connect's bar, the zoom label), the source page's text and the
 * Outline's page. The editor keeps no accessor for tests; this reads its parts and widgets instead.
 */
public final class ShownGraph {
    private ShownGraph() {}

    /**
     * The graph's viewer, as GEF editors answer it, once the layout asked for has arrived (a person waits for the
     * graph to be drawn before looking at it): the layout runs in a background job, and so does an opening editor's
     * lowering of every rank after it (its refusals become red frames and markers then).
     */
    public static GraphViewer of(FusionEditor e) {
        GraphViewer v = e.getAdapter(GraphViewer.class);
        if (v == null || !v.layoutPending() && !e.checkPending()) return v;
        var display = v.getControl().getDisplay();
        long end = System.currentTimeMillis() + 30_000;
        while ((v.layoutPending() || e.checkPending()) && System.currentTimeMillis() < end && !v.getControl().isDisposed()) {
            if (!display.readAndDispatch()) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return v;
    }

    /** The graph's find bar's field while the bar shows (its hint reads "tensor or op name"), else null. */
    public static Text findField(FusionEditor e) {
        for (Control c : page(e).getChildren()) {
            if (c instanceof Composite bar && c.getVisible()) {
                for (Control f : bar.getChildren()) {
                    if (f instanceof Text t && "tensor or op name".equals(t.getMessage())) return t;
                }
            }
        }
        return null;
    }

    /** What the find bar says of its matches ("2 of 5", "not found"), or null when the bar is closed. */
    public static String findCount(FusionEditor e) {
        Text field = findField(e);
        if (field == null) return null;
        Control[] row = field.getParent().getChildren();
        for (int i = 0; i + 1 < row.length; i++) if (row[i] == field && row[i + 1] instanceof Label l) return l.getText();
        return null;
    }

    /** The graph page: palette, banner, mode bar and canvas. */
    public static Composite page(FusionEditor e) { return of(e).getControl().getParent(); }

    /** The banner's text while it shows (the source does not parse), else null. */
    public static String banner(FusionEditor e) {
        for (Control c : page(e).getChildren()) {
            if (c instanceof Text t && c.getVisible() && (t.getStyle() & org.eclipse.swt.SWT.READ_ONLY) != 0) return t.getText();
        }
        return null;
    }

    /** The bar that says Connect mode is on, or null while it is off. */
    public static String modeBar(FusionEditor e) {
        for (Control c : page(e).getChildren()) {
            if (c instanceof Label l && c.getVisible() && l.getText().startsWith("Connect mode")) return l.getText();
        }
        return null;
    }

    /** The zoom level the palette shows ("Zoom: 125%"). */
    public static String zoomLabel(FusionEditor e) {
        return ViewTestSupport.descendants(page(e), Label.class).stream().map(Label::getText)
                .filter(t -> t.startsWith("Zoom:")).findFirst().orElse(null);
    }

    /**
     * The palette's or the page's button with this text, in sight: the palette is one scrolled column, and a person
     * opens the drawer that holds the button (View, Arrange) with a click on its header if it is closed, then turns
     * the wheel over the column until the button shows whole.
     */
    public static Button button(FusionEditor e, String text) {
        Button found = ViewTestSupport.descendants(page(e), Button.class).stream().filter(b -> b.getText().equals(text))
                .findFirst().orElseThrow(() -> new AssertionError("no button " + text));
        if (!found.getParent().getVisible()) openDrawer(found);   // its drawer is closed
        scrollIntoSight(found);
        return found;
    }

    /** The header of the palette drawer that holds this button: the button just above the drawer's column. */
    public static Button drawerHeader(Button inside) {
        Control body = inside.getParent();
        Control[] column = body.getParent().getChildren();
        for (int i = 1; i < column.length; i++) {
            if (column[i] == body && column[i - 1] instanceof Button header) return header;
        }
        throw new AssertionError("the palette's " + inside.getText() + " is in no drawer");
    }

    private static void openDrawer(Button inside) {
        Button header = drawerHeader(inside);
        scrollIntoSight(header);
        Person person = Person.onCurrentDisplay().lookAt(header.getShell());
        person.clickCenter(header);
        person.until(2000, inside::isVisible);
        if (!inside.isVisible()) throw new AssertionError("a click on " + header.getText() + " left "
                + inside.getText() + " hidden");
    }

    private static void scrollIntoSight(Button b) {
        org.eclipse.swt.custom.ScrolledComposite scroller = null;
        for (Control c = b.getParent(); c != null && scroller == null; c = c.getParent()) {
            if (c instanceof org.eclipse.swt.custom.ScrolledComposite s) scroller = s;
        }
        if (scroller == null) return;
        Person person = Person.onCurrentDisplay();
        var area = scroller.getClientArea();
        for (int tries = 0; tries < 60; tries++) {
            var at = b.getDisplay().map(b.getParent(), scroller, b.getBounds());
            if (at.y >= 0 && at.y + at.height <= area.height) return;
            person.wheel(scroller, area.width / 2, Math.max(1, area.height / 2), at.y < 0 ? 1 : -1, 0);
        }
        throw new AssertionError("the palette's " + b.getText() + " stays out of sight after turning the wheel");
    }

    /** Clicks a button of the graph page with the mouse (the shell brought to the front first). */
    public static void press(FusionEditor e, String text) {
        Button b = button(e, text);
        Person.onCurrentDisplay().lookAt(b.getShell()).clickCenter(b);
    }

    /** Whether the palette's Connect toggle is pressed. */
    public static boolean connectMode(FusionEditor e) { return button(e, "Connect").getSelection(); }

    /** The source page's document (the text editor the fusion editor adapts to). */
    public static IDocument source(FusionEditor e) {
        ITextEditor text = e.getAdapter(ITextEditor.class);
        return text.getDocumentProvider().getDocument(text.getEditorInput());
    }

    /** The Source page's text widget, once the page is shown (it is made then). */
    public static StyledText sourceWidget(FusionEditor e) {
        return ViewTestSupport.descendants(page(e).getParent(), StyledText.class).stream()
                .filter(StyledText::isVisible).findFirst().orElseThrow();
    }

    /**
     * Shows the Source page and types {@code with} over {@code word}, the first whole word after {@code "tensor"} in
     * the text, as a person edits: scrolled into view, double-clicked (asserted selected), typed; the text widget.
     */
    public static StyledText typeOverInSource(FusionEditor e, Person person, String tensor, String word, String with) {
        showPage(e, FusionEditor.SOURCE_PAGE);
        StyledText text = sourceWidget(e);
        typeOverAfter(text, person, tensor, word, with);
        return text;
    }

    /**
     * Types {@code with} over {@code word}, the first whole word after {@code "name"} in any text widget (the Source
     * page's, a plain text editor's given the same text), as a person edits.
     */
    public static void typeOverAfter(StyledText text, Person person, String name, String word, String with) {
        String before = text.getText();
        typeOverWord(text, person, wholeWord(before, word, before.indexOf("\"" + name + "\"")), word, with);
    }

    /**
     * Types {@code with} over {@code word}, which stands at offset {@code at} of any text widget, as a person edits:
     * scrolled into view, double-clicked (asserted selected), typed.
     */
    public static void typeOverWord(StyledText text, Person person, int at, String word, String with) {
        text.setTopIndex(Math.max(0, text.getLineAtOffset(at) - 3));
        // and sideways where the word lies past the pane's right edge (tv0's "all" at 1600 x 1000 beside Properties:
        // the double-click landed outside the text in CI)
        int left = text.getHorizontalPixel() + text.getLocationAtOffset(at).x;
        int width = text.getClientArea().width;
        if (left < text.getHorizontalPixel() || left + 60 > text.getHorizontalPixel() + width) {
            text.setHorizontalPixel(Math.max(0, left - width / 2));
        }
        person.settle(100);
        // the middle of the word, so that a one-letter word is hit too
        Point p = text.getLocationAtOffset(at);
        int x = (p.x + text.getLocationAtOffset(at + word.length()).x) / 2;
        person.doubleClick(text, x, p.y + text.getLineHeight() / 2);
        assertEquals(word, text.getSelectionText(), "the double-click selects the word");
        person.type(with, 30);
        person.settle(600);
    }

    /** Where {@code word} first stands as a whole word (not inside "parallel" for "all") from {@code from} on. */
    private static int wholeWord(String text, String word, int from) {
        for (int at = text.indexOf(word, from); at >= 0; at = text.indexOf(word, at + 1)) {
            boolean start = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
            int end = at + word.length();
            if (start && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) return at;
        }
        throw new AssertionError("no word " + word + " in the text after offset " + from);
    }

    /** Clicks the editor's tab of {@code page} (Graph or Source), as a person switches pages. */
    public static void showPage(FusionEditor e, int page) {
        CTabFolder tabs = (CTabFolder) page(e).getParent();
        Person.onCurrentDisplay().lookAt(tabs.getShell()).clickTab(tabs.getItem(page), 1);
    }

    /** The Outline view's overview of the graph (thumbnail and viewport box) while it shows this editor's page, else null. */
    public static Control outline(FusionEditor e) {
        FusionOutlinePage p = outlinePage(e);
        return p == null ? null : p.overview();
    }

    /** The Outline view's page while it shows this editor's graph (thumbnail and viewport box), else null. */
    public static FusionOutlinePage outlinePage(FusionEditor e) {
        var view = e.getSite().getPage().findView(IPageLayout.ID_OUTLINE);
        return view instanceof ContentOutline o && o.getCurrentPage() instanceof FusionOutlinePage p ? p : null;
    }
}
