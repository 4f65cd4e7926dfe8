package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.editor.NewFusionWizard;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Lowering view as a person uses it: it follows what the editor holds (unsaved edits included), the filter
 * takes typing at 30 ms a key, Ctrl+. scrolls the text diff to the change, and the compare panes keep the
 * theme's colours after a theme switch.
 */
public class LoweringJourneyTest {
    private Journey journey;
    private IWorkbenchPage page;
    private Person person;
    private LoweringView view;

    @BeforeEach
    public void open() throws Exception {
        journey = Journey.start();
        page = journey.page();
        person = journey.person();
        view = journey.show(LoweringView.ID);
    }

    @AfterEach
    public void close() {
        page.closeAllEditors(false);
        // the view outlives the test: leave it without this test's filter (a later test would see one pass)
        ShownLowering.filter(view).setText("");
        journey.hide(LoweringView.ID);
    }

    private void waitForLowering() throws Exception { journey.waitForLowering(); }

    /**
     * Issue 18, defect 2: a new empty fusion opens with a hint, not "Lowering failed"; edits in the editor are
     * lowered before they are saved, marked unsaved; saving clears the mark.
     */
    @Test
    public void followsTheEditorsUnsavedStateAndGreetsAnEmptyFusionWithAHint() throws Exception {
        IFile file = ViewTestSupport.workspaceFile("live", "fresh.fusion", NewFusionWizard.contents(NewFusionWizard.EMPTY, "fresh"));
        FusionEditor e = (FusionEditor) IDE.openEditor(page, file, FusionEditor.ID);
        waitForLowering();
        assertInstanceOf(LoweringResult.Incomplete.class, view.result(), "an empty fusion: " + ShownLowering.message(view));
        assertFalse(ShownLowering.message(view).contains("failed"), ShownLowering.message(view));
        assertTrue(ShownLowering.message(view).startsWith("Nothing to lower yet"), ShownLowering.message(view));

        // build tv0 -> set -> tv1 and mark tv1 as the output, without saving
        String in = e.commands().addInputTensor();
        String out = e.commands().addOp(org.hostir.studio.file.OpKind.SET, List.of(in));
        assertNotNull(out);
        e.propertySource(org.hostir.studio.ui.FusionElement.tensor(e.workspacePath(), out)).setPropertyValue("output", "true");
        assertTrue(e.isDirty());
        waitForLowering();
        assertInstanceOf(LoweringResult.Lowered.class, view.result(), "the unsaved fusion is lowered: "
                + ShownLowering.message(view));
        assertTrue(ShownLowering.showsUnsaved(view), "marked as the editor's unsaved state");
        assertTrue(ShownLowering.fileLabel(view).contains("unsaved"), ShownLowering.fileLabel(view));

        page.activate(e);
        person.press(SWT.CTRL, 's');
        waitForLowering();
        assertFalse(e.isDirty());
        assertFalse(ShownLowering.showsUnsaved(view), "saved: no longer marked");
        assertFalse(ShownLowering.fileLabel(view).contains("unsaved"), ShownLowering.fileLabel(view));
    }

    /**
     * Issue 18, defect 5: "stream" typed at 30 ms a key arrives whole and leaves StreamParallelType; a filter that
     * matches nothing says so, with no stale BEFORE/AFTER headers; Ctrl+. scrolls the text diff to the change.
     */
    @Test
    public void filterTypingNoMatchAndNextChangeScrollsTheDiff() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("live", "examples/seeds/ag_matmul_p2p.fusion", "typing.fusion");
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        waitForLowering();
        page.activate(view);
        person.focusByClick(ShownLowering.filter(view));
        person.type("stream", 30);
        person.settle(400);
        assertEquals("stream", ShownLowering.filter(view).getText(), "no key dropped");
        assertEquals(List.of("StreamParallelType"), ShownLowering.of(view).visibleEntries().stream().map(en -> en.step().pass()).toList());
        assertEquals("StreamParallelType", ShownLowering.of(view).selectedPass());

        person.type("zz", 30);
        person.settle(400);
        assertTrue(ShownLowering.of(view).visibleEntries().isEmpty());
        assertTrue(view.getContentDescription().startsWith("No pass matches"), view.getContentDescription());
        assertTrue(headers().isEmpty(), "no stale BEFORE/AFTER headers: " + headers());

        for (int i = 0; i < 2; i++) person.press(SWT.BS);
        person.settle(400);
        assertEquals("StreamParallelType", ShownLowering.of(view).selectedPass());
        assertEquals(2, headers().size(), "the headers are back: " + headers());

        // Ctrl+. with the pass list focused, as after a click on it
        person.clickCenter(ShownLowering.of(view).passList());
        person.press(SWT.CTRL, '.');
        person.press(SWT.CTRL, '.');
        person.press(SWT.CTRL, '.');
        PassRow row = assertInstanceOf(PassRow.class, ShownLowering.of(view).tree().getStructuredSelection().getFirstElement());
        assertTrue(row.isChange());
        List<StyledText> panes = panes();
        StyledText pane = panes.get(row.kind() == org.hostir.studio.diff.DiffKind.REMOVED ? 0 : 1);
        int line = lineOf(pane.getText(), row.text());
        assertTrue(line >= 0, "the change's line is in the pane: " + row.text());
        int top = pane.getTopIndex();
        int visible = pane.getClientArea().height / pane.getLineHeight();
        assertTrue(line >= top && line < top + visible, "line " + line + " is in view: lines " + top + " to "
                + (top + visible));
    }

    private List<StyledText> panes() {
        return ViewTestSupport.descendants(ShownLowering.of(view).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20 && t.getSize().y > 10)
                .sorted(Comparator.comparingInt(t -> t.toDisplay(0, 0).x)).toList();
    }

    private List<String> headers() {
        return ViewTestSupport.descendants(ShownLowering.of(view).diffControl(), CLabel.class).stream()
                .filter(l -> l.isVisible() && l.getText() != null && !l.getText().isBlank()).map(CLabel::getText).toList();
    }

    private static int lineOf(String text, String rowText) {
        String want = rowText.strip().lines().findFirst().orElse("").strip();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) if (lines[i].strip().startsWith(want)) return i;
        return -1;
    }
}
