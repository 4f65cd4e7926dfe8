package org.hostir.studio.ui.launch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.StreamParallelTypePass;
import org.hostir.studio.ui.OptionField;

/**
 * One field per lowering option the passes declare, passed to the run as {@code --option KEY=VALUE}; the number
 * of streams is on the Execution tab (the run's {@code --streams}).
 */
final class LoweringTab extends SettingsTab {
    private final List<OptionField> fields = new ArrayList<>();

    @Override
    public String getName() { return "Lowering"; }

    @Override
    protected void createFields(Composite parent) {
        fields.clear();
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            if (o.equals(StreamParallelTypePass.NUMBER_OF_STREAMS)) continue;
            OptionField f = OptionField.create(parent, o, this::changed);
            if (f.control() instanceof Button) {
                f.control().setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1));
            } else {
                new Label(parent, SWT.NONE); // the grid's third column
            }
            fields.add(f);
        }
    }

    @Override
    protected void show(LaunchSettings s) {
        for (OptionField f : fields) {
            f.show(s.options().getOrDefault(f.option().key(), f.option().formattedDefault()));
        }
    }

    @Override
    protected LaunchSettings apply(LaunchSettings s) {
        Map<String, String> o = new HashMap<>(s.options());
        for (OptionField f : fields) o.put(f.option().key(), f.text());
        return new LaunchSettings(s.file(), s.symbols(), s.backend(), s.devices(), s.streams(), s.iterations(),
                s.warmup(), s.validate(), o, s.profile(), s.routing(), s.capacityFactor());
    }
}
