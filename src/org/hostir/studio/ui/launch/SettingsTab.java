package org.hostir.studio.ui.launch;

import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.ui.AbstractLaunchConfigurationTab;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;

/**
 * A tab that edits part of {@link LaunchSettings}: subclasses lay out labelled fields with the helpers here and
 * map between the fields and the settings record; reading, writing and validation go through the record.
 */
abstract class SettingsTab extends AbstractLaunchConfigurationTab {
    private Composite body;

    @Override
    public final void createControl(Composite parent) {
        body = new Composite(parent, SWT.NONE);
        body.setLayout(new GridLayout(3, false));
        createFields(body);
        setControl(body);
    }

    protected abstract void createFields(Composite parent);

    protected abstract void show(LaunchSettings s);

    protected abstract LaunchSettings apply(LaunchSettings s);

    /** A problem with the fields, or null. */
    protected String problem() { return null; }

    /**
     * Nothing: every tab edits the same {@link LaunchSettings}, so {@link HostIrTabGroup#setDefaults} writes a new
     * configuration's settings once, from one look at the context, instead of once per tab.
     */
    @Override
    public void setDefaults(ILaunchConfigurationWorkingCopy configuration) {}

    @Override
    public void initializeFrom(ILaunchConfiguration configuration) {
        try {
            show(LaunchAttributes.read(configuration));
        } catch (CoreException e) {
            setErrorMessage(e.getMessage());
        }
    }

    @Override
    public void performApply(ILaunchConfigurationWorkingCopy configuration) {
        try {
            LaunchAttributes.write(apply(LaunchAttributes.read(configuration)), configuration);
        } catch (CoreException e) {
            setErrorMessage(e.getMessage());
        }
    }

    @Override
    public boolean isValid(ILaunchConfiguration launchConfig) {
        String p = problem();
        setErrorMessage(p);
        return p == null;
    }

    protected Text text(Composite parent, String label, String tooltip) {
        new Label(parent, SWT.NONE).setText(label);
        Text t = new Text(parent, SWT.BORDER);
        t.setToolTipText(tooltip);
        t.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        t.addModifyListener(e -> changed());
        return t;
    }

    protected Spinner spinner(Composite parent, String label, int min, int max) {
        new Label(parent, SWT.NONE).setText(label);
        Spinner s = new Spinner(parent, SWT.BORDER);
        s.setMinimum(min);
        s.setMaximum(max);
        s.addModifyListener(e -> changed());
        new Label(parent, SWT.NONE);
        return s;
    }

    /**
     * One width for a column of number fields: a spinner is otherwise as wide as its own maximum's digits, and the
     * Execution tab's four stood with their - and + buttons at three places (issue 35, driven by hand).
     */
    protected static void sameWidth(Spinner... spinners) {
        int width = 0;
        for (Spinner s : spinners) width = Math.max(width, s.computeSize(SWT.DEFAULT, SWT.DEFAULT).x);
        for (Spinner s : spinners) {
            GridData d = new GridData(SWT.BEGINNING, SWT.CENTER, false, false);
            d.widthHint = width - s.computeTrim(0, 0, 0, 0).width;   // the hint is the text's width, trim added
            s.setLayoutData(d);
        }
    }

    protected Combo combo(Composite parent, String label, String... items) {
        new Label(parent, SWT.NONE).setText(label);
        Combo c = new Combo(parent, SWT.READ_ONLY);
        c.setItems(items);
        c.addModifyListener(e -> changed());
        new Label(parent, SWT.NONE);
        return c;
    }

    protected Button check(Composite parent, String label) {
        Button b = new Button(parent, SWT.CHECK);
        b.setText(label);
        b.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1));
        b.addListener(SWT.Selection, e -> changed());
        return b;
    }

    protected static void select(Combo c, String value) {
        int i = c.indexOf(value);
        c.select(Math.max(i, 0));
    }

    protected void changed() {
        updateLaunchConfigurationDialog();
    }
}
