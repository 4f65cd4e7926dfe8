package org.hostir.studio.ui.launch;

import java.nio.file.Path;

import org.eclipse.jface.text.BadLocationException;
import org.eclipse.ui.console.IHyperlink;
import org.eclipse.ui.console.IPatternMatchListenerDelegate;
import org.eclipse.ui.console.PatternMatchEvent;
import org.eclipse.ui.console.TextConsole;

/** Turns the {@code trace: FILE.json} line a run prints into a link that opens the trace in the timeline view. */
public final class TraceLinkMatcher implements IPatternMatchListenerDelegate {
    private TextConsole console;

    @Override
    public void connect(TextConsole c) { console = c; }

    @Override
    public void disconnect() { console = null; }

    @Override
    public void matchFound(PatternMatchEvent event) {
        if (console == null) return;
        try {
            String text = console.getDocument().get(event.getOffset(), event.getLength());
            String path = text.substring("trace: ".length()).strip();
            int offset = event.getOffset() + "trace: ".length();
            console.addHyperlink(new IHyperlink() {
                public void linkEntered() { }

                public void linkExited() { }

                public void linkActivated() { TraceOpener.open(Path.of(path), path, null, null, null); }
            }, offset, path.length());
        } catch (BadLocationException e) {
            // the console was cleared meanwhile: nothing to link
        }
    }
}
