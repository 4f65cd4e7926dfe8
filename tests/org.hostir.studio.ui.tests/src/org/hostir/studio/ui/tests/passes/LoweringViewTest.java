package org.hostir.studio.ui.tests.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.passes.model.PassEntry;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.passes.model.SnapshotExport;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lowering view in a real workbench on seed 000's AG+matmul with the P2P allgather: it follows the editor,
 * lists every pass, shows what StreamParallelType added, hides the passes that changed nothing, steps, links
 * nodes to the fusion file, exports, and shows a broken file as its diagnostic.
 */
public class LoweringViewTest {
    /** The standard pipeline's passes (PipelineTraceTest pins the list itself). */
    private static final List<String> PASSES = Pipeline.standard().passes().stream().map(Pass::name).toList();
    /**
     * The stream loop as the view prints it: in the default generation's spelling (2026-04 prints the loop index
     * {@code streamIdx}, nvFuser's csrc/type.cpp:781 at 81c4b22fd; the seeds' 2025-06 {@code StreamIdx}).
     */
    private static final String STREAM_LOOP = "FOR " + LoweringOptions.DEFAULTS.nvFuser().streamAxisName();

    private IWorkbenchPage page;
    private IFile file;
    private LoweringView view;

    @BeforeEach
    public void open() throws Exception {
        page = ViewTestSupport.page();
        page.getWorkbenchWindow().getShell().setSize(1280, 960);
        file = ViewTestSupport.copyToWorkspace("lowering", "examples/seeds/ag_matmul_p2p.fusion", "ag_matmul_p2p.fusion");
        view = (LoweringView) page.showView(LoweringView.ID);
        // the view follows the active editor on a .fusion file
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        // the view outlives a test class: another class may have left rank 1 shown, and the view lowers only the rank shown
        ShownLowering.selectRank(view, 0);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
    }

    @AfterEach
    public void close() {
        view.setHideUnchanged(false);
        page.closeAllEditors(false);
    }

    private List<String> visibleNames() {
        return ShownLowering.of(view).visibleEntries().stream().map(e -> e.step().pass()).toList();
    }

    /** The option fields are made from the passes' declarations: one per option, showing its default. */
    @Test
    public void showsAFieldPerDeclaredOptionWithItsDefault() throws Exception {
        assertEquals(LoweringOptions.DEFAULTS.asMap(), ShownLowering.options(view));
        ShownLowering.setSpinner(view, "Streams", 2);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        assertEquals("2", ShownLowering.options(view).get("numberOfStreams"));
        ShownLowering.setSpinner(view, "Streams", LoweringOptions.DEFAULTS.numberOfStreams());
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
    }

    @Test
    public void showsEveryPassAndWhatStreamParallelTypeAdded() throws Exception {
        assertEquals(file, view.file(), "the view follows the fusion editor");
        assertInstanceOf(LoweringResult.Lowered.class, view.result(), ShownLowering.message(view));
        assertEquals(PASSES, visibleNames());

        ShownLowering.of(view).selectPass("StreamParallelType");
        assertEquals("StreamParallelType", ShownLowering.of(view).selectedPass());
        List<PassRow> rows = ShownLowering.of(view).treeRows();
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.ADDED && r.node() instanceof ForLoop),
                "a stream FOR loop added: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.ADDED && r.node() instanceof P2PCommunication),
                "P2P communications added: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.text().startsWith("P2PCommunication") && r.text().contains("recv")),
                "the printed recv: " + rows);

        page.setPartState(page.findViewReference(LoweringView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        ViewTestSupport.spin(Display.getCurrent(), 800);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "lowering-view.png");
        page.setPartState(page.findViewReference(LoweringView.ID), IWorkbenchPage.STATE_RESTORED);
    }

    @Test
    public void theTextDiffShowsBeforeOnTheLeftAndAfterOnTheRight() throws Exception {
        ShownLowering.of(view).selectPass("StreamParallelType");
        ViewTestSupport.spin(Display.getCurrent(), 300);
        var rank = ((LoweringResult.Lowered) view.result()).trace().rank(0);
        int index = PASSES.indexOf("StreamParallelType");
        String before = rank.before(index).print();
        String after = rank.steps().get(index).after().print();
        assertNotEquals(before, after, "the pass changed the program");

        // what a person sees: the text panes and their headers, ordered left to right on the screen
        List<StyledText> panes = ViewTestSupport.descendants(ShownLowering.of(view).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 10 && t.getSize().y > 10)
                .sorted(java.util.Comparator.comparingInt(t -> t.toDisplay(0, 0).x)).toList();
        assertEquals(2, panes.size(), "two text panes side by side: " + panes);
        assertEquals(normalized(before), normalized(panes.get(0).getText()), "the left pane holds BEFORE");
        assertEquals(normalized(after), normalized(panes.get(1).getText()), "the right pane holds AFTER");
        assertTrue(panes.get(1).getText().contains(STREAM_LOOP) && !panes.get(0).getText().contains(STREAM_LOOP));

        List<String> labels = ViewTestSupport.descendants(ShownLowering.of(view).diffControl(), CLabel.class).stream()
                .filter(l -> l.isVisible() && l.getText() != null && !l.getText().isBlank())
                .sorted(java.util.Comparator.comparingInt(l -> l.toDisplay(0, 0).x)).map(CLabel::getText).toList();
        assertEquals(2, labels.size(), "a header over each side: " + labels);
        assertTrue(labels.get(0).startsWith("BEFORE") && labels.get(0).contains("StreamParallelType"), labels.get(0));
        assertTrue(labels.get(1).startsWith("AFTER") && labels.get(1).contains("StreamParallelType"), labels.get(1));
    }

    private static String normalized(String s) {
        return s.replace("\r\n", "\n").strip();
    }

    private LoweringResult.Lowered lowered() {
        return assertInstanceOf(LoweringResult.Lowered.class, view.result(), ShownLowering.message(view));
    }

    private PassTrace trace() {
        return assertInstanceOf(LoweringResult.Lowered.class, view.result(), ShownLowering.message(view)).trace();
    }

    private static List<String> names(List<PassEntry> entries) {
        return entries.stream().map(e -> e.step().pass()).toList();
    }

    @Test
    public void theModelFiltersThePassList() {
        PassTrace.RankTrace rank = trace().rank(0);
        assertEquals(PASSES, names(PassEntry.visible(rank, " ", false)));
        assertEquals(List.of("DecomposeReshardings", "Segment", "StreamParallelType"),
                names(PassEntry.visible(rank, "", true)), "the passes that changed the program");
        assertEquals(List.of("StreamParallelType"), names(PassEntry.visible(rank, "STREAM", false)), "any case");
        assertEquals(List.of(), names(PassEntry.visible(rank, "Validate", true)), "Validate changes nothing");
        PassEntry spt = PassEntry.visible(rank, "StreamParallelType", false).getFirst();
        assertEquals(PASSES.indexOf("StreamParallelType"), spt.index());
        assertEquals(spt.step().after().print(), SnapshotExport.text(spt, rank));
        assertEquals(rank.result().print(), SnapshotExport.text(null, rank), "no pass selected: the final program");
    }

    @Test
    public void hideUnchangedHidesThePassesThatChangedNothing() {
        view.setHideUnchanged(true);
        assertEquals(List.of("DecomposeReshardings", "Segment", "StreamParallelType"), visibleNames());
        view.setHideUnchanged(false);
        assertEquals(PASSES, visibleNames());
    }

    @Test
    public void filterAndSteppingMoveThroughThePasses() {
        ShownLowering.of(view).selectPass("Validate");
        view.stepPass(1);
        assertEquals("DecomposeReshardings", ShownLowering.of(view).selectedPass());
        view.stepPass(1);
        view.stepPass(-1);
        assertEquals("DecomposeReshardings", ShownLowering.of(view).selectedPass());
        ShownLowering.of(view).selectPass(PASSES.getLast());
        view.stepPass(1);
        assertEquals(PASSES.getLast(), ShownLowering.of(view).selectedPass(), "stepping stops at the last pass");

        ShownLowering.of(view).selectPass("StreamParallelType");
        view.stepChange(1);
        Object first = ShownLowering.of(view).tree().getStructuredSelection().getFirstElement();
        assertInstanceOf(PassRow.class, first);
        assertTrue(((PassRow) first).isChange(), "next change selects a changed node");
        view.stepChange(1);
        assertNotEquals(first, ShownLowering.of(view).tree().getStructuredSelection().getFirstElement(), "and moves on");
    }

    @Test
    public void theSteppingKeysAreBoundAndMoveTheSelection() throws Exception {
        page.activate(view);
        ViewTestSupport.spin(Display.getCurrent(), 200);
        String p = "org.hostir.studio.ui.passes.";
        assertEquals(p + "nextPass", ViewTestSupport.boundCommand("F6"));
        assertEquals(p + "previousPass", ViewTestSupport.boundCommand("M2+F6"));
        assertEquals(p + "nextChange", ViewTestSupport.boundCommand("M1+."));
        assertEquals(p + "previousChange", ViewTestSupport.boundCommand("M1+,"));

        IHandlerService handlers = view.getSite().getService(IHandlerService.class);
        ShownLowering.of(view).selectPass("Validate");
        handlers.executeCommand(p + "nextPass", null);
        assertEquals("DecomposeReshardings", ShownLowering.of(view).selectedPass(), "F6's command steps to the next pass");
        handlers.executeCommand(p + "nextPass", null);
        handlers.executeCommand(p + "previousPass", null);
        assertEquals("DecomposeReshardings", ShownLowering.of(view).selectedPass(), "Shift+F6's command steps back");

        ShownLowering.of(view).selectPass("StreamParallelType");
        ShownLowering.of(view).tree().setSelection(org.eclipse.jface.viewers.StructuredSelection.EMPTY);
        handlers.executeCommand(p + "nextChange", null);
        PassRow first = assertInstanceOf(PassRow.class, ShownLowering.of(view).tree().getStructuredSelection().getFirstElement(),
                "Ctrl+.'s command selects the first change");
        assertTrue(first.isChange());
        handlers.executeCommand(p + "nextChange", null);
        Object second = ShownLowering.of(view).tree().getStructuredSelection().getFirstElement();
        assertNotEquals(first, second, "and the next one");
        handlers.executeCommand(p + "previousChange", null);
        assertEquals(first, ShownLowering.of(view).tree().getStructuredSelection().getFirstElement(), "Ctrl+,'s command goes back");
    }

    @Test
    public void everyRankHasItsProgram() throws Exception {
        ShownLowering.selectRank(view, 1);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        ShownLowering.of(view).selectPass("StreamParallelType");
        assertTrue(ShownLowering.of(view).treeRows().stream().anyMatch(r -> r.node() instanceof P2PCommunication));
        assertTrue(SnapshotExport.text(ShownLowering.of(view).selected(), ShownLowering.of(view).rank()).contains("%HostIrContainer"));
        ShownLowering.selectRank(view, 0);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
    }

    @Test
    public void nodesLinkToTheFusionFileAndBack() {
        ShownLowering.of(view).selectPass("InsertDeallocations");
        PassRow p2p = ShownLowering.of(view).treeRows().stream().filter(r -> r.node() instanceof P2PCommunication).findFirst()
                .orElseThrow();
        ShownLowering.of(view).tree().setSelection(new org.eclipse.jface.viewers.StructuredSelection(p2p), true);
        var published = (IStructuredSelection) view.getSite().getSelectionProvider().getSelection();
        FusionElement element = assertInstanceOf(FusionElement.class, published.getFirstElement(),
                "selecting a node publishes the fusion element it came from");
        assertEquals(file.getFullPath().toString(), element.file());

        ShownLowering.of(view).tree().setSelection(org.eclipse.jface.viewers.StructuredSelection.EMPTY);
        view.reveal(FusionElement.op(file.getFullPath().toString(), 0));
        List<?> revealed = ShownLowering.of(view).tree().getStructuredSelection().toList();
        assertFalse(revealed.isEmpty(), "the matmul op reveals the nodes lowered from it");
    }

    @Test
    public void exportWritesEverySnapshotOfEveryRank() throws Exception {
        Path dir = Files.createTempDirectory("snapshots");
        assertEquals(2 * (1 + PASSES.size()), SnapshotExport.write(lowered().everyRank(), dir));
        // file 00 is the input; pass i's snapshot is file i + 1 (PropagateShardings comes first since issue 34)
        int step = PASSES.indexOf("StreamParallelType") + 1;
        String name = String.format(java.util.Locale.ROOT, "%02d-StreamParallelType.txt", step);
        assertEquals(name, SnapshotExport.fileName(step, "StreamParallelType"));
        assertTrue(Files.readString(dir.resolve("rank-1/" + name)).contains(STREAM_LOOP));
    }

    @Test
    public void aBrokenFileShowsItsDiagnostic() throws Exception {
        IFile broken = ViewTestSupport.workspaceFile("lowering", "broken.fusion",
                "{\"format\": \"hostir-fusion/1\", \"name\": \"broken\", \"tensors\": [");
        view.setFile(broken);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        assertInstanceOf(LoweringResult.Failed.class, view.result());
        assertTrue(ShownLowering.message(view).contains("broken.fusion:"), ShownLowering.message(view));
        assertFalse(ShownLowering.message(view).contains("Exception"), "a diagnostic, not a stack trace");
        assertSame(broken, view.file());
        assertTrue(ShownLowering.of(view).visibleEntries().isEmpty());
        assertNotNull(ShownLowering.message(view));
    }
}
