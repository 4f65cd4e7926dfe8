package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.IResourceChangeListener;
import org.eclipse.core.resources.IWorkspace;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.part.ISetSelectionTarget;
import org.hostir.studio.ui.editor.EditorWarmUp;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 19: a fresh workbench's first open of the 1,000-op fusion took 3.8 s (the next 1.0 s): class
 * loading and compiling of the editor's path. {@link EditorWarmUp} runs that path in the background after the
 * start. What a person must not notice: no window, no focus change, nothing in the workspace; and when the person
 * opened a fusion first, the warm-up does nothing.
 */
public class EditorWarmUpJourneyTest extends JourneyTest {
    @Test
    public void theWarmUpDrawsAnUnshownGraphAndLeavesWindowsFocusAndWorkspaceAlone() throws Exception {
        ViewTestSupport.join(EditorWarmUp.FAMILY);   // the one the Studio's start scheduled, out of the way
        journey.closeEditors();
        person.lookAt(journey.shell());
        Display display = journey.shell().getDisplay();
        List<Shell> before = List.of(display.getShells());
        Control focus = person.focus();
        List<Shell> shown = new ArrayList<>();
        Listener onShow = e -> { if (e.widget instanceof Shell s) shown.add(s); };
        List<String> added = new ArrayList<>();
        IResourceChangeListener onChange = e -> {
            try {
                if (e.getDelta() != null) e.getDelta().accept(d -> {
                    if (d.getKind() == org.eclipse.core.resources.IResourceDelta.ADDED) added.add(d.getFullPath().toString());
                    return true;
                });
            } catch (CoreException ex) {
                added.add("unreadable delta: " + ex);
            }
        };
        IWorkspace workspace = ResourcesPlugin.getWorkspace();
        List<String> files = files();
        display.addFilter(SWT.Show, onShow);
        workspace.addResourceChangeListener(onChange);
        EditorWarmUp.Warmed warmed;
        try {
            warmed = warmOffTheUiThread(new NullProgressMonitor());
        } finally {
            display.removeFilter(SWT.Show, onShow);
            workspace.removeResourceChangeListener(onChange);
        }
        ViewTestSupport.screenshot(journey.shell(), "editor-warm-up.png");
        // the editor's parts linked; a 200-op chain: 202 tensors and 200 ops drawn, laid out by ELK, painted, every
        // rank lowered
        assertEquals(new EditorWarmUp.Warmed(false, 9, 402, true, true, true), warmed);
        assertEquals(List.of(), shown, "no window was shown");
        assertEquals(before, List.of(display.getShells()), "the unshown shell is gone, no other came");
        assertEquals(focus, person.focus(), "the focus stayed where the person had it");
        assertEquals(List.of(), added, "nothing was added to the workspace");
        assertEquals(files, files(), "the workspace's files are the same");
        assertEquals(List.of(), List.of(page.getEditorReferences()), "no editor was opened");
    }

    @Test
    public void aPersonWhoOpenedAFusionFirstIsNotWarmedFor() throws Exception {
        ViewTestSupport.join(EditorWarmUp.FAMILY);
        journey.closeEditors();
        IFile file = ViewTestSupport.copyToWorkspace("warmup", "examples/seeds/ag_matmul_p2p.fusion",
                "opened_first.fusion");
        var explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        ((ISetSelectionTarget) explorer).selectReveal(new StructuredSelection(file));
        person.settle(300);
        Tree tree = ViewTestSupport.descendants(explorer.getViewSite().getShell(), Tree.class).stream()
                .filter(t -> t.isVisible() && t.getSelectionCount() == 1).findFirst().orElseThrow();
        Rectangle item = tree.getSelection()[0].getBounds();
        person.doubleClick(tree, item.x + item.width / 2, item.y + item.height / 2);
        assertTrue(person.until(20_000, () -> page.getActiveEditor() instanceof FusionEditor),
                "a double-click on the file in the Project Explorer opened it");
        FusionEditor editor = (FusionEditor) page.getActiveEditor();
        assertEquals(file, editor.getEditorInput().getAdapter(IFile.class));
        int shells = journey.shell().getDisplay().getShells().length;
        assertTrue(warmOffTheUiThread(new NullProgressMonitor()).skipped(), "a fusion editor open: nothing to warm");
        assertEquals(shells, journey.shell().getDisplay().getShells().length, "no shell made");
        ViewTestSupport.screenshot(journey.shell(), "editor-warm-up-skipped.png");
        journey.closeEditors();
        NullProgressMonitor cancelled = new NullProgressMonitor();
        cancelled.setCanceled(true);   // what the workbench's shutdown does to the scheduled job
        assertTrue(warmOffTheUiThread(cancelled).skipped(), "a cancelled warm-up does nothing");
    }

    /** Runs the warm-up on a thread of its own (it asks the UI thread for its steps), the event loop running. */
    private EditorWarmUp.Warmed warmOffTheUiThread(IProgressMonitor monitor) throws Exception {
        AtomicReference<Object> answer = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                answer.set(EditorWarmUp.warm(monitor));
            } catch (RuntimeException | Error e) {
                answer.set(e);
            }
        }, "warm-up under test");
        t.start();
        assertTrue(person.until(120_000, () -> answer.get() != null), "the warm-up ended");
        if (answer.get() instanceof Throwable e) throw new AssertionError("the warm-up failed", e);
        assertNotNull(answer.get());
        return (EditorWarmUp.Warmed) answer.get();
    }

    private static List<String> files() throws CoreException {
        List<String> out = new ArrayList<>();
        ResourcesPlugin.getWorkspace().getRoot().accept(r -> {
            if (r.getType() == IResource.FILE) out.add(r.getFullPath().toString());
            return true;
        });
        return out;
    }
}
