package org.hostir.studio.ui.studio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jface.preference.PreferencePage;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPreferencePage;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.OptionType;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.OptionField;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.ComboTips;

/**
 * Window > Preferences > Host IR: the default devices, lowering options (the nvFuser generation among them, one
 * field per declared option as in the Lowering view), backend and simulated profile that a new Host IR Program
 * launch and the Lowering view start from. OK stores them and shows them in the Lowering view.
 */
public final class HostIrPreferencePage extends PreferencePage implements IWorkbenchPreferencePage {
    public static final String ID = "org.hostir.studio.ui.studio.preferences";
    public static final String HELP_ID = "org.hostir.studio.preferences";
    private Spinner devices;
    private final List<OptionField> options = new ArrayList<>();
    private Combo backend;
    private Combo profile;

    @Override
    public void init(IWorkbench workbench) {
        // one line: it wrapped to two in the dialog at 1280 x 800
        setDescription("Defaults of new launches and of the Lowering view.");
    }

    @Override
    protected Control createContents(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        root.setLayout(new GridLayout(2, false));
        new Label(root, SWT.NONE).setText("Devices:");
        devices = new Spinner(root, SWT.BORDER);
        devices.setValues(HostIrPreferences.BUILT_IN_DEVICES, 1, FusionBindings.MAX_DEVICES, 0, 1, 8);
        devices.setToolTipText("The device count a new launch runs on and the Lowering view lowers for");
        Group lowering = new Group(root, SWT.NONE);
        lowering.setText("Lowering options");
        GridLayout rows = new GridLayout(2, false);
        rows.verticalSpacing = 2;   // with the flags paired, the page fits the dialog at 1280 x 800 (see below)
        lowering.setLayout(rows);
        lowering.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1));
        // flags two to a row: one a row, the page was 25 px taller than the dialog at 1280 x 800 (54 px in the
        // tests' workbench), its Restore Defaults and Apply hidden under the page's edge (issue 35, round 16, by hand)
        int flagsInRow = 0;
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            boolean flag = o.type() instanceof OptionType.Flag;
            if (!flag && flagsInRow == 1) new Label(lowering, SWT.NONE);   // a lone flag's row ends
            flagsInRow = flag ? (flagsInRow + 1) % 2 : 0;
            options.add(OptionField.create(lowering, o, () -> { }));
        }
        if (flagsInRow == 1) new Label(lowering, SWT.NONE);
        new Label(root, SWT.NONE).setText("Backend:");
        backend = new Combo(root, SWT.READ_ONLY);
        backend.setItems(ExecutionTab.BACKENDS.toArray(String[]::new));
        new Label(root, SWT.NONE).setText("Simulated profile:");
        profile = new Combo(root, SWT.DROP_DOWN);
        profile.setItems(Engine.builtInProfiles().toArray(String[]::new));
        profile.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        ComboTips.onLabel(profile, "The machine a sim launch predicts: a built-in profile or a profile file");
        show(HostIrPreferences.defaults());
        PlatformUI.getWorkbench().getHelpSystem().setHelp(root, HELP_ID);
        return root;
    }

    private void show(HostIrPreferences.Defaults d) {
        devices.setSelection(d.devices());
        for (OptionField f : options) f.show(d.options().getOrDefault(f.option().key(), f.option().formattedDefault()));
        backend.select(Math.max(0, backend.indexOf(d.backend())));
        profile.setText(d.profile());
    }

    /** What the page shows, as preferences. */
    HostIrPreferences.Defaults shown() {
        Map<String, String> values = new LinkedHashMap<>();
        for (OptionField f : options) values.put(f.option().key(), f.text());
        return new HostIrPreferences.Defaults(devices.getSelection(), values, backend.getText(), profile.getText().strip());
    }

    @Override
    protected void performDefaults() {
        show(HostIrPreferences.Defaults.builtIn());
        super.performDefaults();
    }

    @Override
    public boolean performOk() {
        HostIrPreferences.setDefaults(shown());
        for (var window : PlatformUI.getWorkbench().getWorkbenchWindows()) {
            for (var page : window.getPages()) {
                if (page.findView(LoweringView.ID) instanceof LoweringView view) view.reloadSettings();
            }
        }
        return true;
    }
}
