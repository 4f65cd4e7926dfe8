package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.commands.operations.IOperationHistory;
import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.StyleRange;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchCommandConstants;
import org.eclipse.ui.handlers.IHandlerService;
import org.eclipse.ui.views.properties.IPropertySource;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.NewFusionWizard;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fusion editor in a real workbench: open, edit through its API and properties, undo, save, diagnose. */
public class FusionEditorTest {
    @AfterEach
    void close() { EditorFixture.closeAll(); }

    private static FusionDocument parse(String text) throws Exception {
        return FusionReader.read(text, "test").document();
    }

    private static String seed(String name) throws Exception {
        return Files.readString(EditorFixture.repo().resolve("examples/seeds/" + name + ".fusion"));
    }

    @Test
    void opensEveryExample() throws Exception {
        List<Path> all = EditorFixture.examples();
        assertTrue(all.size() >= 13, "examples found: " + all.size());
        List<Path> examples = ExampleSample.toOpen(all);
        System.out.println("editor opens " + examples.size() + " of " + all.size() + " examples");
        for (Path p : examples) {
            String text = Files.readString(p);
            IFile f = EditorFixture.file(p.getFileName().toString(), text);
            FusionEditor e = EditorFixture.open(f);
            FusionDocument doc = parse(text);
            assertEquals(doc, e.model(), p.toString());
            assertEquals(doc.tensors().size() + doc.ops().size(), ShownGraph.of(e).keys().size(), p + ": one node per tensor and op");
            assertNull(ShownGraph.banner(e), p + ": no banner");
            assertFalse(e.isDirty(), p + ": opening does not dirty the file");
            for (String k : ShownGraph.of(e).keys()) assertNotNull(ShownGraph.of(e).bounds(k), k);
            EditorFixture.closeAll();
        }
    }

    @Test
    void editsUndoAndRedo() throws Exception {
        IFile f = EditorFixture.file("edits.fusion", seed("allgather"));
        FusionEditor e = EditorFixture.open(f);
        FusionDocument original = e.model();
        String in = original.inputs().get(0), out = original.outputs().get(0);
        List<FusionDocument> states = new ArrayList<>();
        states.add(original);

        String added = e.commands().addOp(OpKind.ADD, List.of(out));   // add an op: one input so far
        assertNotNull(added);
        states.add(e.model());
        assertTrue(e.commands().connect(in, added, -1), "connect");     // connect its second operand
        states.add(e.model());
        assertEquals(List.of(out, in), e.model().ops().get(1).inputs());
        IPropertySource axis0 = (IPropertySource) e.propertySource(FusionElement.tensor(e.workspacePath(), in))
                .getPropertyValue("axis.0");
        axis0.setPropertyValue("parallel", "Stream");        // change an axis to Stream
        states.add(e.model());
        assertEquals("Stream", e.model().tensor(in).get().axes().get(0).parallel().fileName());
        e.propertySource(FusionElement.tensor(e.workspacePath(), in)).setPropertyValue("mesh", "0 1");  // a mesh
        states.add(e.model());
        assertEquals("0 1", org.hostir.studio.ui.editor.model.AxisText.format(e.model().tensor(in).get().mesh()));
        assertEquals(5, new java.util.HashSet<>(states).size(), "every edit changed the model");
        assertTrue(e.isDirty());

        IOperationHistory h = OperationHistoryFactory.getOperationHistory();
        for (int i = states.size() - 2; i >= 0; i--) {
            h.undo(e.commands().undoContext(), null, null);
            assertEquals(states.get(i), e.model(), "undo to state " + i);
            assertEquals(FusionWriter.write(states.get(i)), ShownGraph.source(e).get(), "source follows undo " + i);
        }
        for (int i = 1; i < states.size(); i++) {
            h.redo(e.commands().undoContext(), null, null);
            assertEquals(states.get(i), e.model(), "redo to state " + i);
        }
    }

    @Test
    void invalidEditIsRefusedWithAMessage() throws Exception {
        FusionEditor e = EditorFixture.open(EditorFixture.file("refuse.fusion", seed("allgather")));
        FusionDocument before = e.model();
        String in = before.inputs().get(0);
        IPropertySource ps = e.propertySource(FusionElement.tensor(e.workspacePath(), in));
        ps.setPropertyValue("axes", "DIDx D, M, ,");
        assertEquals(before, e.model());
        assertNotNull(e.commands().lastError());
        ps.setPropertyValue("mesh", "0 0");
        assertEquals(before, e.model());
        assertTrue(e.commands().lastError().contains("twice"), e.commands().lastError());
        assertFalse(e.commands().renameTensor(in, "9bad"));
        assertEquals(before, e.model());
    }

    @Test
    void deleteKeyAndUndoCommand() throws Exception {
        FusionEditor e = EditorFixture.open(EditorFixture.file("delete.fusion", seed("allgather")));
        FusionDocument before = e.model();
        String out = before.outputs().get(0);
        e.getSite().getPage().activate(e);
        e.select(List.of(FusionElement.tensor(e.workspacePath(), out)));
        IStructuredSelection sel = (IStructuredSelection) e.getSite().getSelectionProvider().getSelection();
        assertEquals(List.of(FusionElement.tensor(e.workspacePath(), out)), sel.toList(), "selection published");
        IHandlerService hs = e.getSite().getService(IHandlerService.class);
        hs.executeCommand(IWorkbenchCommandConstants.EDIT_DELETE, null);
        assertTrue(e.model().tensor(out).isEmpty(), "deleted");
        assertTrue(e.model().ops().isEmpty(), "its op went with it");
        EditorFixture.spin(200);
        // Ctrl+Z / Ctrl+Y run the editor's global Undo/Redo action handlers (the operation history's)
        var bars = e.getEditorSite().getActionBars();
        var undo = bars.getGlobalActionHandler(org.eclipse.ui.actions.ActionFactory.UNDO.getId());
        assertTrue(undo.isEnabled(), "Undo enabled: " + undo.getText());
        undo.run();
        assertEquals(before, e.model(), "Edit > Undo (Ctrl+Z) restores it");
        EditorFixture.spin(200);
        bars.getGlobalActionHandler(org.eclipse.ui.actions.ActionFactory.REDO.getId()).run();
        assertTrue(e.model().tensor(out).isEmpty(), "Edit > Redo deletes again");
    }

    @Test
    void saveReopenCompare() throws Exception {
        IFile f = EditorFixture.file("save.fusion", seed("ag_matmul"));
        FusionEditor e = EditorFixture.open(f);
        String in = e.model().inputs().get(0);
        e.propertySource(FusionElement.tensor(e.workspacePath(), in)).setPropertyValue("dtype", "bfloat16");
        e.autoLayout();
        ShownGraph.of(e);   // the layout arrives from its background job, then stores every position
        FusionDocument edited = e.model();
        assertTrue(e.isDirty());
        e.doSave(null);
        EditorFixture.spin(100);
        assertFalse(e.isDirty(), "saved");
        assertEquals(FusionWriter.write(edited), EditorFixture.read(f), "the file holds the editor's JSON");
        assertTrue(Files.list(f.getParent().getLocation().toFile().toPath())
                .noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temp file left");
        EditorFixture.closeAll();
        FusionEditor again = EditorFixture.open(f);
        assertEquals(edited, again.model(), "reopened");
        assertEquals(ShownGraph.of(e).keys().size(), ShownGraph.of(again).keys().size());
        for (String k : ShownGraph.of(again).keys()) assertNotNull(ShownGraph.of(again).bounds(k));
    }

    @Test
    void invalidScheduleGivesMarkerAndDecoration() throws Exception {
        IFile f = EditorFixture.file("invalid.fusion", seed("ag_matmul_p2p"));
        FusionEditor e = EditorFixture.open(f);
        assertEquals(0, EditorFixture.markers(f).length, "the seed is valid");
        IPropertySource axis1 = (IPropertySource) e.propertySource(FusionElement.tensor(e.workspacePath(), "tv0"))
                .getPropertyValue("axis.1");
        axis1.setPropertyValue("parallel", "DIDx");   // two DIDx axes on one tensor
        IMarker[] markers = EditorFixture.markers(f);
        assertTrue(markers.length > 0, "a marker");
        IMarker m = markers[0];
        assertEquals(IMarker.SEVERITY_ERROR, m.getAttribute(IMarker.SEVERITY, -1));
        assertTrue(m.getAttribute(IMarker.LINE_NUMBER, 0) > 0, "with a line number");
        assertTrue(Arrays.stream(markers).anyMatch(x -> x.getAttribute("rule", "").equals("parallel.duplicate")),
                "the duplicated DIDx is reported");
        assertNotNull(ShownGraph.of(e).error("tv0"), "decoration on tv0");
        assertTrue(ShownGraph.of(e).error("tv0").contains("parallel.duplicate"), ShownGraph.of(e).error("tv0"));
        EditorFixture.screenshot("editor-graph-error.png");
        OperationHistoryFactory.getOperationHistory().undo(e.commands().undoContext(), null, null);
        assertEquals(0, EditorFixture.markers(f).length, "undo clears the marker");
        assertNull(ShownGraph.of(e).error("tv0"));
    }

    @Test
    void invalidJsonKeepsTheGraphAndTheText() throws Exception {
        IFile f = EditorFixture.file("broken.fusion", seed("allgather_p2p"));
        FusionEditor e = EditorFixture.open(f);
        FusionDocument valid = e.model();
        String broken = ShownGraph.source(e).get().replaceFirst("\"tv1\"", "\"tv1\",,");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        ShownGraph.source(e).set(broken);
        e.reparse();
        assertEquals(valid, e.model(), "the graph keeps its last valid state");
        assertNotNull(ShownGraph.banner(e), "banner");
        assertEquals(broken, ShownGraph.source(e).get(), "the user's text is untouched");
        assertNull(e.commands().addInputTensor(), "no graph edit may overwrite the unparsable text");
        assertEquals(broken, ShownGraph.source(e).get(), "still untouched");
        assertTrue(Arrays.stream(EditorFixture.markers(f)).anyMatch(m -> m.getAttribute("rule", "").startsWith("json")),
                "json marker");
        assertTrue(EditorFixture.markers(f)[0].getAttribute(IMarker.LINE_NUMBER, 0) > 0);
        ShownGraph.showPage(e, FusionEditor.GRAPH_PAGE);
        EditorFixture.screenshot("editor-graph-banner.png");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        ShownGraph.source(e).set(broken.replace("\"tv1\",,", "\"tv1\"").replace("\"M\"", "\"S\""));
        e.reparse();
        assertNull(ShownGraph.banner(e), "banner gone once the text parses");
        assertNotEquals(valid, e.model(), "source edits flow into the graph");
        assertEquals(0, EditorFixture.markers(f).length);
    }

    /** Issue 6's definition of done: seed 000's AG_matmul_P2p from an empty file, palette and properties only. */
    @Test
    void buildAgMatmulP2pFromEmpty() throws Exception {
        String expectedText = seed("ag_matmul_p2p");
        FusionDocument expected = parse(expectedText);
        IFile f = EditorFixture.file("ag_matmul_p2p.fusion", NewFusionWizard.contents(NewFusionWizard.EMPTY, "ag_matmul_p2p"));
        FusionEditor e = EditorFixture.open(f);
        String file = e.workspacePath();
        e.select(List.of());
        IPropertySource fusion = e.propertySource(((IStructuredSelection) e.getSite().getSelectionProvider()
                .getSelection()).getFirstElement());
        fusion.setPropertyValue("description", expected.description());
        fusion.setPropertyValue("symbols", "M=8, K=4, N=6");

        String a = e.commands().addInputTensor();                       // palette: Input tensor
        IPropertySource pa = e.propertySource(FusionElement.tensor(file, a));
        pa.setPropertyValue("axes", "D, M, K");
        ((IPropertySource) pa.getPropertyValue("axis.0")).setPropertyValue("parallel", "DIDx");
        pa.setPropertyValue("mesh", "all");
        String b = e.commands().addInputTensor();
        IPropertySource pb = e.propertySource(FusionElement.tensor(file, b));
        pb.setPropertyValue("axes", "K, N");
        pb.setPropertyValue("mesh", "all");

        e.select(List.of(FusionElement.tensor(file, a), FusionElement.tensor(file, b)));
        String c = e.commands().addOp(OpKind.MATMUL, ShownGraph.of(e).selectedKeys()); // palette: matmul over the selection
        IPropertySource pc = e.propertySource(FusionElement.tensor(file, c));
        // the op's output states no sharding: propagation infers its mesh and A's DIDx (issue 34)
        assertEquals("D, M, N, reduction K", pc.getPropertyValue("axes"), "derived by the op, unsharded");
        assertEquals("DIDx, inferred from " + a + " (T0) through matmul", pc.getPropertyValue("sharding.axis.0"));
        assertTrue(e.commands().makeShardingExplicit(List.of(c)), "the inferred sharding written into the file");
        assertEquals("DIDx D, M, N, reduction K", pc.getPropertyValue("axes"));
        assertEquals("all", pc.getPropertyValue("mesh"), "the mesh spelled as the inputs spell it");
        ((IPropertySource) pc.getPropertyValue("axis.0")).setPropertyValue("parallel", "Stream");
        ShownGraph.press(e, "Zoom 100%");
        // the Lowering view follows the unsaved graph once the edits rest: the picture shows it caught up
        EditorFixture.spin(org.hostir.studio.ui.passes.LoweringView.LIVE_DELAY_MS + 200);
        org.hostir.studio.ui.tests.ViewTestSupport.join(org.hostir.studio.ui.passes.LoweringView.JOB_FAMILY);
        EditorFixture.screenshot("editor-built-ag-matmul-p2p.png");
        e.doSave(null);

        FusionDocument saved = parse(EditorFixture.read(f));
        assertEquals(FusionWriter.write(expected.withLayout(null)), FusionWriter.write(saved.withLayout(null)));
        assertEquals(expectedText.strip(), FusionWriter.write(saved.withLayout(null)).strip(), "same JSON up to layout");
        assertEquals(0, EditorFixture.markers(f).length, "and valid");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        EditorFixture.screenshot("editor-source.png");
    }

    /**
     * Issue 35: the Source page's text widget is made when the page is first shown, not at the opening (a quarter of
     * the UI thread's time before a 1,000-op fusion's first picture); a graph edit made before reaches the document,
     * and the page, once shown, holds that text, coloured.
     */
    @Test
    void theSourcePageIsMadeWhenFirstShown() throws Exception {
        FusionEditor e = EditorFixture.open(EditorFixture.file("lazy.fusion", seed("allgather")));
        Control sourcePage = ((CTabFolder) ShownGraph.page(e).getParent()).getItem(FusionEditor.SOURCE_PAGE).getControl();
        assertEquals(List.of(), ViewTestSupport.descendants(sourcePage, StyledText.class), "no text widget at the opening");
        String added = e.commands().addInputTensor();
        assertTrue(e.isDirty(), "the graph's edit made the editor dirty");
        assertTrue(ShownGraph.source(e).get().contains("\"" + added + "\""), "and reached the document");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        EditorFixture.spin(300);
        List<StyledText> texts = ViewTestSupport.descendants(sourcePage, StyledText.class).stream()
                .filter(StyledText::isVisible).toList();
        assertEquals(1, texts.size(), "the page shows its text widget");
        StyledText text = texts.get(0);
        assertEquals(ShownGraph.source(e).get(), text.getText(), "holding the document, the graph's edit included");
        StyleRange key = text.getStyleRangeAtOffset(text.getText().indexOf("\"format\"") + 1);
        assertNotNull(key, "coloured once shown");
        assertTrue(text.getBounds().width > 200 && text.getBounds().height > 100, "and laid out: " + text.getBounds());
        EditorFixture.screenshot("editor-source-lazy.png");
    }

    @Test
    void linksSelectionBothWays() throws Exception {
        FusionEditor e = EditorFixture.open(EditorFixture.file("link.fusion", seed("ag_matmul_p2p")));
        e.select(List.of(FusionElement.op(e.workspacePath(), 0)));
        assertEquals(List.of("op:tv2"), ShownGraph.of(e).selectedKeys());
        IStructuredSelection s = (IStructuredSelection) e.getSite().getSelectionProvider().getSelection();
        assertEquals(FusionElement.op(e.workspacePath(), 0), s.getFirstElement());
        e.getSite().getSelectionProvider().setSelection(
                new org.eclipse.jface.viewers.StructuredSelection(FusionElement.tensor(e.workspacePath(), "tv1")));
        assertEquals(List.of("tv1"), ShownGraph.of(e).selectedKeys());
    }

    @Test
    void wizardTemplatesComeFromTheBundle() throws Exception {
        List<String> templates = NewFusionWizard.templates();
        assertTrue(templates.contains("ag_matmul_p2p"), templates.toString());
        ParsedFusion p = FusionReader.read(NewFusionWizard.contents("allgather_p2p", "mine"), "t");
        assertEquals("mine", p.document().name());
        assertEquals(parse(seed("allgather_p2p")).tensors(), p.document().tensors());
    }
}
