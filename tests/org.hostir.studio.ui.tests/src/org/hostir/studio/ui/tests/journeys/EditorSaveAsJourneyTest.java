package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Hand drive 17, finding 15: File > Save As... was grey with the fusion editor in front. A person saves an edited
 * fusion under a new name through the File menu and the Save As dialog; the editor then shows the new file, saved,
 * and the old file keeps what it had.
 */
public class EditorSaveAsJourneyTest extends JourneyTest {
    @Test
    public void saveAsWritesTheEditedFusionToANewFileAndShowsIt() throws Exception {
        FusionEditor e = journey.openSeed("save-as", "ag_matmul_p2p", "original.fusion");
        page.activate(e);
        IFile original = e.getEditorInput().getAdapter(IFile.class);
        String before = Files.readString(Path.of(original.getLocation().toOSString()));
        Button input = ShownGraph.button(e, "Input tensor");
        person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);
        person.until(5000, e::isDirty);
        assertTrue(e.isDirty(), "the added tensor made the editor dirty");
        person.click(ShownGraph.of(e).getControl(), 5, 5);

        person.lookAt(journey.shell()).press(SWT.ALT, 'f');
        person.settle(400);
        MenuItem saveAs = item(journey.shell().getMenuBar(), "File", "Save As...");
        ViewTestSupport.screenshot(journey.shell(), "editor-save-as-menu.png");
        boolean enabled = saveAs.isEnabled();
        if (!enabled) {
            // the open menu holds the keys and clicks of the journeys after this one
            person.press(SWT.ESC).press(SWT.ESC);
            person.settle(300);
        }
        assertTrue(enabled, "File > Save As... is enabled for the fusion editor");
        List<String> seen = new ArrayList<>();
        answerSaveAs(Display.getCurrent(), "copy.fusion", seen);
        person.press(0, 'a');   // Save &As...
        person.until(8000, () -> seen.contains("done") && !e.getEditorInput().getName().equals("original.fusion"));
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "editor-save-as-after.png");

        assertTrue(seen.contains("done"), "the Save As dialog came and was answered: " + seen);
        IFile copy = e.getEditorInput().getAdapter(IFile.class);
        assertNotNull(copy, "the editor shows a workspace file");
        assertEquals("copy.fusion", copy.getName(), "the editor shows the new file");
        assertEquals(original.getParent(), copy.getParent());
        assertEquals("copy.fusion", e.getPartName(), "the tab is titled with the new file");
        assertFalse(e.isDirty(), "saved");
        String written = Files.readString(Path.of(copy.getLocation().toOSString()));
        assertTrue(written.contains("\"tv3\""), "the new file has the added tensor:\n" + written);
        assertEquals(before, Files.readString(Path.of(original.getLocation().toOSString())), "the old file kept its text");
    }

    /** The item {@code text} of the menu bar's menu {@code menu} ('&' and accelerators left out). */
    private static MenuItem item(Menu bar, String menu, String text) {
        for (MenuItem m : bar.getItems()) {
            if (!plain(m.getText()).equals(menu)) continue;
            for (MenuItem i : m.getMenu().getItems()) if (plain(i.getText()).equals(text)) return i;
        }
        throw new AssertionError("no " + menu + " > " + text);
    }

    private static String plain(String s) { return s.replace("&", "").replaceFirst("\t.*", ""); }

    /**
     * When the Save As dialog is up (it holds the event loop until closed), a person types {@code name} over the
     * proposed file name and clicks OK; {@code seen} says how far it went.
     */
    private static void answerSaveAs(Display display, String name, List<String> seen) {
        long deadline = System.currentTimeMillis() + 8000;
        Runnable[] look = new Runnable[1];
        look[0] = () -> {
            Shell dialog = null;
            for (Shell s : display.getShells()) if (s.isVisible() && "Save As".equals(s.getText())) dialog = s;
            if (dialog == null) {
                if (System.currentTimeMillis() < deadline) display.timerExec(100, look[0]);
                else seen.add("no dialog");
                return;
            }
            seen.add("dialog");
            Person hand = new Person(display).lookAt(dialog);
            hand.settle(300);
            Text field = ViewTestSupport.descendants(dialog, Text.class).stream()
                    .filter(t -> t.getText().endsWith(".fusion")).findFirst().orElse(null);
            if (field == null) {
                seen.add("no file name field");
                dialog.close();
                return;
            }
            hand.retype(field, name);
            hand.settle(200);
            ViewTestSupport.screenshot(dialog, "editor-save-as-dialog.png");
            Button ok = ViewTestSupport.descendants(dialog, Button.class).stream()
                    .filter(b -> plain(b.getText()).equals("OK") || plain(b.getText()).equals("Save")).findFirst()
                    .orElse(null);
            if (ok == null) {
                seen.add("no OK");
                dialog.close();
                return;
            }
            hand.clickCenter(ok);
            seen.add("done");
        };
        display.timerExec(100, look[0]);
    }
}
