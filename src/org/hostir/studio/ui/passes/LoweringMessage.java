package org.hostir.studio.ui.passes;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Text;

/** The Lowering view's message above the lists: why the lowering failed (in red), a hint, or nothing. */
final class LoweringMessage {
    final Text text;

    LoweringMessage(Composite parent) {
        text = new Text(parent, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL);
        GridData data = new GridData(SWT.FILL, SWT.TOP, true, false);
        data.heightHint = 60;
        data.exclude = true;
        text.setLayoutData(data);
        text.setVisible(false);
    }

    /** Shows what {@code r} has to say (a lowered result says nothing and hides the message). */
    void show(LoweringResult r) {
        String said = switch (r) {
            case LoweringResult.Failed(String f, List<String> diagnostics) -> "Lowering failed:\n" + String.join("\n", diagnostics);
            case LoweringResult.Incomplete(String f, String hint) -> hint;
            case LoweringResult.Lowered l -> null;
        };
        say(said, r instanceof LoweringResult.Failed
                ? Colors.get(Colors.ERROR_TEXT, text.getDisplay(), SWT.COLOR_DARK_RED) : null);
    }

    /** Shows {@code hint} in the text's own colour (null hides the message). */
    void hint(String hint) { say(hint, null); }

    private void say(String said, org.eclipse.swt.graphics.Color color) {
        ((GridData) text.getLayoutData()).exclude = said == null;
        text.setVisible(said != null);
        text.setText(said == null ? "" : said);
        text.setForeground(color);
        text.getParent().layout(true, true);
    }
}
