package org.hostir.studio.ui.passes;

import java.io.IOException;
import java.nio.file.Path;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.DirectoryDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.passes.model.SnapshotExport;

/** The widget half of {@link SnapshotExport}: the clipboard, and the folder dialog with its report. */
final class SnapshotTransfer {
    private static final String TITLE = "Export all snapshots";

    private SnapshotTransfer() {}

    static void copy(Display display, String text) {
        Clipboard clipboard = new Clipboard(display);
        try {
            clipboard.setContents(new Object[] { text }, new Transfer[] { TextTransfer.getInstance() });
        } finally {
            clipboard.dispose();
        }
    }

    /** Asks for a folder, writes {@code trace}'s snapshots there and says how many, or why it could not. */
    static void writeInteractively(Shell shell, PassTrace trace) {
        var dialog = new DirectoryDialog(shell);
        dialog.setText(TITLE);
        String dir = dialog.open();
        if (dir == null) return;
        try {
            int n = SnapshotExport.write(trace, Path.of(dir));
            MessageDialog.openInformation(shell, TITLE, n + " snapshots written to " + dir);
        } catch (IOException e) {
            MessageDialog.openError(shell, TITLE, "Could not write the snapshots: " + e.getMessage());
        }
    }
}
