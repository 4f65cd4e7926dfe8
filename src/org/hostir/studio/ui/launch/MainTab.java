package org.hostir.studio.ui.launch;

import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.dialogs.FilteredResourcesSelectionDialog;

/** The fusion file and its symbol bindings. */
final class MainTab extends SettingsTab {
    private Text file;
    private Text symbols;

    @Override
    public String getName() { return "Main"; }

    @Override
    protected void createFields(Composite parent) {
        file = text(parent, "Fusion file:", "workspace path of a .fusion file, e.g. /seeds/ag_matmul_p2p.fusion");
        Button browse = new Button(parent, SWT.PUSH);
        browse.setText("Browse...");
        browse.addListener(SWT.Selection, e -> browse());
        symbols = text(parent, "Symbols:", "bindings such as M=64, K=128 (D is the number of devices)");
        new org.eclipse.swt.widgets.Label(parent, SWT.NONE);
    }

    private void browse() {
        FilteredResourcesSelectionDialog dialog = new FilteredResourcesSelectionDialog(getShell(), false,
                ResourcesPlugin.getWorkspace().getRoot(), org.eclipse.core.resources.IResource.FILE);
        dialog.setTitle("Choose a fusion file");
        dialog.setInitialPattern("*.fusion");
        if (dialog.open() == FilteredResourcesSelectionDialog.OK && dialog.getResult().length > 0
                && dialog.getResult()[0] instanceof IFile f) {
            file.setText(f.getFullPath().toString());
        }
    }

    @Override
    protected void show(LaunchSettings s) {
        file.setText(s.file());
        symbols.setText(LaunchSettings.formatSymbols(s.symbols()));
    }

    @Override
    protected LaunchSettings apply(LaunchSettings s) {
        Map<String, String> parsed = LaunchSettings.parseSymbols(symbols.getText());
        return new LaunchSettings(file.getText().strip(), parsed == null ? s.symbols() : parsed, s.backend(),
                s.devices(), s.streams(), s.iterations(), s.warmup(), s.validate(), s.options(), s.profile());
    }

    @Override
    protected String problem() {
        if (file == null) return null;
        String path = file.getText().strip();
        if (path.isEmpty()) return "Choose a fusion file";
        if (!path.endsWith(".fusion")) return "The file must be a .fusion file";
        IFile f = ResourcesPlugin.getWorkspace().getRoot().getFile(org.eclipse.core.runtime.Path.fromPortableString(path));
        if (!f.exists()) return "No such file in the workspace: " + path;
        if (LaunchSettings.parseSymbols(symbols.getText()) == null) return "Symbols are NAME=INTEGER, separated by commas";
        return null;
    }
}
