package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio: "16" typed over a double-clicked word on the Source page took two Ctrl+Z to
 * undo. What a person expects there is what Eclipse's own Text Editor does in this workbench, so the oracle is
 * measured, not assumed: the same file's text in the Text Editor and on the Source page, the same keys (a word
 * double-clicked and typed over, Ctrl+Z until the word is back, Ctrl+Y and Ctrl+Shift+Z until the typed run is back),
 * and after every key the two must show the same line. On the Source page the graph's model follows the text.
 */
public class SourceTypingUndoJourneyTest extends JourneyTest {
    private static final String SEED = "ag_matmul_p2p";
    /** More presses of one key than either editor needs for one run: a key that does nothing ends the loop. */
    private static final int MOST = 8;

    /** {@code with} typed over {@code word}, the first whole word after {@code "name"}; what the model says of it. */
    private record Edit(String name, String word, String with, Function<FusionDocument, String> model) {}

    private static final List<Edit> EDITS = List.of(
            new Edit("M", "8", "16", d -> String.valueOf(d.symbols().get("M"))),
            new Edit("tv1", "float", "double", d -> d.tensor("tv1").map(t -> t.dtype().fileName()).orElse("none")));

    @Test
    public void aRunTypedOverAWordIsUndoneAndRedoneAsInTheTextEditor() throws Exception {
        IFile txt = ViewTestSupport.copyToWorkspace("typingundo", "examples/seeds/" + SEED + ".fusion", "typed.txt");
        ITextEditor plainEditor = (ITextEditor) IDE.openEditor(page, txt, "org.eclipse.ui.DefaultTextEditor");
        person.settle(300);
        StyledText plain = (StyledText) plainEditor.getAdapter(Control.class);
        List<String> oracle = new ArrayList<>();
        for (Edit edit : EDITS) oracle.addAll(typeUndoRedo(plain, edit, "text-editor", null));
        System.out.println("Text Editor, key by key:\n  " + String.join("\n  ", oracle));
        page.closeEditor(plainEditor, false);

        FusionEditor e = journey.openSeed("typingundo", SEED, "typed.fusion");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(300);
        StyledText source = ShownGraph.sourceWidget(e);
        List<String> shown = new ArrayList<>();
        for (Edit edit : EDITS) shown.addAll(typeUndoRedo(source, edit, "source-page", e));
        System.out.println("Source page, key by key:\n  " + String.join("\n  ", shown));
        assertEquals(String.join("\n", oracle), String.join("\n", shown),
                "the Source page shows, key by key, what Eclipse's Text Editor shows for the same keys");
    }

    /**
     * Types the edit's run over its word, then Ctrl+Z until the word is back, Ctrl+Y until the run is back, Ctrl+Z
     * again and Ctrl+Shift+Z: the edited line after each key. With {@code fusion}, its model after each whole undo
     * and redo says what the text says. Screenshots after the first Ctrl+Z, the step the issue is about.
     */
    private List<String> typeUndoRedo(StyledText text, Edit edit, String who, FusionEditor fusion) {
        String original = text.getText();
        ShownGraph.typeOverAfter(text, person, edit.name(), edit.word(), edit.with());
        String typed = text.getText();
        int at = original.indexOf(edit.word(), original.indexOf("\"" + edit.name() + "\""));
        List<String> trace = new ArrayList<>();
        trace.add(edit.with() + " typed over " + edit.word() + ": " + line(text, at));
        press(text, at, SWT.CTRL, 'z', original, trace);
        ViewTestSupport.screenshot(journey.shell(), "typing-undo-" + who + "-" + edit.word() + ".png");
        pressUntil(text, at, SWT.CTRL, 'z', original, trace);
        follows(fusion, edit, edit.word(), "Ctrl+Z back to the word");
        pressUntil(text, at, SWT.CTRL, 'y', typed, trace);
        follows(fusion, edit, edit.with(), "Ctrl+Y");
        pressUntil(text, at, SWT.CTRL, 'z', original, trace);
        pressUntil(text, at, SWT.CTRL | SWT.SHIFT, 'z', typed, trace);
        follows(fusion, edit, edit.with(), "Ctrl+Shift+Z");
        pressUntil(text, at, SWT.CTRL, 'z', original, trace);
        follows(fusion, edit, edit.word(), "Ctrl+Z back to the word again");
        return trace;
    }

    /** Presses the key until the text is {@code until} (at most {@link #MOST} times); the line after each press. */
    private void pressUntil(StyledText text, int at, int modifiers, char key, String until, List<String> trace) {
        for (int i = 0; i < MOST && !text.getText().equals(until); i++) press(text, at, modifiers, key, until, trace);
        assertEquals(until, text.getText(), "the keys reached the text meant: " + String.join("\n", trace));
    }

    private void press(StyledText text, int at, int modifiers, char key, String until, List<String> trace) {
        person.press(modifiers, key);
        person.settle(150);
        String name = ((modifiers & SWT.SHIFT) != 0 ? "Ctrl+Shift+" : "Ctrl+") + Character.toUpperCase(key);
        trace.add(name + ": " + line(text, at) + (text.getText().equals(until) ? "" : " (not there yet)"));
    }

    private static String line(StyledText text, int at) { return text.getLine(text.getLineAtOffset(at)).strip(); }

    /** The fusion's model, once the text is parsed again (the editor waits for a pause in typing), says {@code value}. */
    private void follows(FusionEditor fusion, Edit edit, String value, String after) {
        if (fusion == null) return;
        person.until(3000, () -> value.equals(edit.model().apply(fusion.model())));
        assertEquals(value, edit.model().apply(fusion.model()), "the model after " + after);
        assertTrue(fusion.isDirty() == !value.equals(edit.word()), "dirty only while the run is typed, after " + after);
    }
}
