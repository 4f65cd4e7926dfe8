package org.hostir.studio.ui.passes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.DirectoryDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.lower.PassTrace;

/**
 * Getting the lowering view's snapshots out as text: the selected one to the clipboard, and every rank's input
 * and per-pass snapshots to a folder as {@code rank-R/NN-Pass.txt}, for a diff tool or a bug report.
 */
final class SnapshotExport {
    private static final String TITLE = "Export all snapshots";

    private SnapshotExport() {}

    /** The printed program after the selected pass (the rank's final program when none is selected). */
    static String text(PassEntry selected, PassTrace.RankTrace rank) {
        return selected != null ? selected.step().after().print() : rank.result().print();
    }

    static void copy(Display display, String text) {
        Clipboard clipboard = new Clipboard(display);
        try {
            clipboard.setContents(new Object[] { text }, new Transfer[] { TextTransfer.getInstance() });
        } finally {
            clipboard.dispose();
        }
    }

    /** Writes every rank's snapshots of {@code trace} (none when null) under {@code dir}; returns the file count. */
    static int write(PassTrace trace, Path dir) throws IOException {
        if (trace == null) return 0;
        int n = 0;
        for (PassTrace.RankTrace rank : trace.ranks()) {
            Path rd = dir.resolve("rank-" + rank.rank());
            Files.createDirectories(rd);
            Files.writeString(rd.resolve("00-input.txt"), rank.input().print());
            n++;
            for (int i = 0; i < rank.steps().size(); i++) {
                PassTrace.Step s = rank.steps().get(i);
                Files.writeString(rd.resolve(String.format(Locale.ROOT, "%02d-%s.txt", i + 1, s.pass())),
                        s.after().print());
                n++;
            }
        }
        return n;
    }

    /** Asks for a folder, writes {@code trace}'s snapshots there and says how many, or why it could not. */
    static void writeInteractively(Shell shell, PassTrace trace) {
        var dialog = new DirectoryDialog(shell);
        dialog.setText(TITLE);
        String dir = dialog.open();
        if (dir == null) return;
        try {
            int n = write(trace, Path.of(dir));
            MessageDialog.openInformation(shell, TITLE, n + " snapshots written to " + dir);
        } catch (IOException e) {
            MessageDialog.openError(shell, TITLE, "Could not write the snapshots: " + e.getMessage());
        }
    }
}
