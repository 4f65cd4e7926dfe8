package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.custom.StyledText;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;

/** A fusion editor made dirty as a person does it: a word on its Source page double-clicked and typed over. */
final class DirtyFusion {
    private DirtyFusion() {}

    /**
     * Double-clicks {@code word}, the first whole word after {@code "name"} on the Source page, and types
     * {@code typed} over it; the text after, checked to hold {@code expect}.
     */
    static String typeOver(Journey journey, FusionEditor e, String name, String word, String typed, String expect) {
        journey.page().activate(e);
        String after = ShownGraph.typeOverInSource(e, journey.person(), name, word, typed).getText();
        assertTrue(after.contains(expect), "the word typed over: " + expect);
        return after;
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
