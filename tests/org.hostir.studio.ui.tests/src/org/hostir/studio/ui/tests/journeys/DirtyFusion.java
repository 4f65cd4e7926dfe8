package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;

/** A fusion editor made dirty as a person does it: a word on its Source page double-clicked and typed over. */
final class DirtyFusion {
    private DirtyFusion() {}

    /**
     * Double-clicks {@code word}, the first after {@code anchor} on the Source page, and types {@code typed} over
     * it; the text after, checked to hold {@code anchor} and then {@code expect}.
     */
    static String typeOver(Journey journey, FusionEditor e, String anchor, String word, String typed, String expect) {
        Person person = journey.person();
        journey.page().activate(e);
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        StyledText text = sourceWidget(e);
        String saved = text.getText();
        int at = saved.indexOf(word, saved.indexOf(anchor));
        text.setTopIndex(Math.max(0, text.getLineAtOffset(at) - 3));
        person.settle(100);
        // the middle of the word, so that a one-letter word is hit too
        Point p = text.getLocationAtOffset(at);
        int x = (p.x + text.getLocationAtOffset(at + word.length()).x) / 2;
        person.doubleClick(text, x, p.y + text.getLineHeight() / 2);
        assertEquals(word, text.getSelectionText(), "the double-click selects the word");
        person.type(typed, 30);
        person.settle(600);
        assertTrue(text.getText().contains(expect), "the word typed over: " + expect);
        return text.getText();
    }

    static String sourceText(FusionEditor e) { return sourceWidget(e).getText(); }

    static String onDisk(FusionEditor e) throws Exception {
        IFile f = e.getEditorInput().getAdapter(IFile.class);
        return Files.readString(Path.of(f.getLocation().toOSString()));
    }

    private static StyledText sourceWidget(FusionEditor e) {
        return ViewTestSupport.descendants(ShownGraph.page(e).getParent(), StyledText.class).stream()
                .filter(t -> t.getText().contains("\"tv1\"")).findFirst().orElseThrow();
    }
}
