package org.hostir.studio.ui.timeline;

import java.util.function.Consumer;

import org.eclipse.jface.dialogs.Dialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.engine.Engine;

/**
 * Asks which machine to predict the shown run on: a built-in hardware profile or a profile file's path. It does not
 * block (the workbench goes on while it is open); OK hands the choice on.
 */
final class ProfileDialog extends Dialog {
    static final String TITLE = "Show Prediction Above", COMPARE_TITLE = "Compare With Prediction";
    private final String initial;
    private final boolean compare;
    private final Consumer<String> chosen;
    private Combo profile;

    /** {@code compare}: the prediction is compared with the run (the Compare tab), not stacked above it. */
    ProfileDialog(Shell parent, String initial, boolean compare, Consumer<String> chosen) {
        super(parent);
        this.initial = initial;
        this.compare = compare;
        this.chosen = chosen;
        setBlockOnOpen(false);
    }

    @Override
    protected void configureShell(Shell shell) {
        super.configureShell(shell);
        shell.setText(compare ? COMPARE_TITLE : TITLE);
    }

    @Override
    protected Control createDialogArea(Composite parent) {
        Composite area = (Composite) super.createDialogArea(parent);
        area.setLayout(new GridLayout(2, false));
        Label hint = new Label(area, SWT.WRAP);
        hint.setText("The run shown is simulated with the same program, devices and options on this machine,\n"
                + (compare ? "and compared with its prediction node by node (the Compare tab, difference tracks)."
                        : "and its predicted timeline is shown above it (each rank's rows labelled predicted / measured)."));
        hint.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1));
        new Label(area, SWT.NONE).setText("Profile:");
        profile = new Combo(area, SWT.DROP_DOWN);
        profile.setItems(Engine.builtInProfiles().toArray(String[]::new));
        profile.setText(initial);
        profile.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        return area;
    }

    @Override
    protected void okPressed() {
        String p = profile.getText().strip();
        super.okPressed();
        if (!p.isEmpty()) chosen.accept(p);
    }
}
