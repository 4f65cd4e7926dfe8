package org.hostir.studio.ui.launch;

import java.nio.file.Path;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.dialogs.FilteredResourcesSelectionDialog;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.parse.LogProgram;

/**
 * The fusion file and its symbol bindings; in debug mode also the Program: a Host IR dump every rank runs instead
 * of the lowering's ({@link LaunchAttributes#PROGRAM}), refused in the dialog when it is missing or not a dump.
 */
final class MainTab extends SettingsTab {
    /** The Program field's tooltip, which also tells a person's test which field it is. */
    static final String PROGRAM_TIP = "workspace path of a Host IR dump (NVFUSER_DUMP=host_ir) every rank runs instead"
            + " of the lowering's program; empty: the lowering's";
    private final boolean debug;
    private Text file;
    private Text symbols;
    private Text program;
    /** The last dump checked and its answer: the dialog asks on every key, the file is read once per change. */
    private String checkedKey;
    private String checkedProblem;

    /** {@code debug}: the tab of a debug configuration, with the Program field. */
    MainTab(boolean debug) { this.debug = debug; }

    @Override
    public String getName() { return "Main"; }

    @Override
    protected void createFields(Composite parent) {
        file = text(parent, "Fusion file:", "workspace path of a .fusion file, e.g. /seeds/ag_matmul_p2p.fusion");
        browseButton(parent, file, "Choose a fusion file", "*.fusion");
        symbols = text(parent, "Symbols:", "bindings such as M=64, K=128 (D is the number of devices)");
        new Label(parent, SWT.NONE);
        if (debug) {
            program = text(parent, "Program:", PROGRAM_TIP);
            browseButton(parent, program, "Choose a Host IR dump", "*.txt");
        }
    }

    private void browseButton(Composite parent, Text target, String title, String pattern) {
        Button browse = new Button(parent, SWT.PUSH);
        browse.setText("Browse...");
        browse.addListener(SWT.Selection, e -> browse(target, title, pattern));
    }

    private void browse(Text target, String title, String pattern) {
        FilteredResourcesSelectionDialog dialog = new FilteredResourcesSelectionDialog(getShell(), false,
                ResourcesPlugin.getWorkspace().getRoot(), IResource.FILE);
        dialog.setTitle(title);
        dialog.setInitialPattern(pattern);
        if (dialog.open() == FilteredResourcesSelectionDialog.OK && dialog.getResult().length > 0
                && dialog.getResult()[0] instanceof IFile f) {
            target.setText(f.getFullPath().toString());
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
                s.devices(), s.streams(), s.iterations(), s.warmup(), s.validate(), s.options(), s.profile(),
                s.routing(), s.capacityFactor());
    }

    @Override
    public void initializeFrom(ILaunchConfiguration configuration) {
        super.initializeFrom(configuration);
        if (program == null) return;
        try {
            program.setText(configuration.getAttribute(LaunchAttributes.PROGRAM, ""));
        } catch (CoreException e) {
            setErrorMessage(e.getMessage());
        }
    }

    @Override
    public void performApply(ILaunchConfigurationWorkingCopy configuration) {
        super.performApply(configuration);
        if (program == null) return;
        String path = program.getText().strip();
        configuration.setAttribute(LaunchAttributes.PROGRAM, path.isEmpty() ? null : path);
    }

    @Override
    protected String problem() {
        if (file == null) return null;
        String path = file.getText().strip();
        if (path.isEmpty()) return "Choose a fusion file";
        if (!path.endsWith(".fusion")) return "The file must be a .fusion file";
        IFile fusion = workspaceFile(path);
        if (fusion == null || !fusion.exists()) return "No such file in the workspace: " + path;
        if (LaunchSettings.parseSymbols(symbols.getText()) == null) return "Symbols are NAME=INTEGER, separated by commas";
        return program == null ? null : programProblem(program.getText().strip());
    }

    /** Why the Program cannot be run, in one line, or null (empty: the lowering's program). */
    private String programProblem(String path) {
        if (path.isEmpty()) return null;
        IFile dump = workspaceFile(path);
        if (dump == null || !dump.exists() || dump.getLocation() == null) {
            return "Program: no such file in the workspace: " + path;
        }
        String key = path + "@" + dump.getModificationStamp();
        if (!key.equals(checkedKey)) {
            checkedKey = key;
            checkedProblem = dumpProblem(path, Path.of(dump.getLocation().toOSString()));
        }
        return checkedProblem;
    }

    /** The engine reads the file as {@code hirstudio debug --program} does; its first diagnostic says why not. */
    private static String dumpProblem(String path, Path location) {
        try {
            if (Engine.readDumps(location).stream().anyMatch(LogProgram::readable)) return null;
            return "Program: " + path + " is not a Host IR dump: no container of it can be read";
        } catch (EngineFailure e) {
            String why = e.diagnostics().isEmpty() ? e.getMessage() : e.diagnostics().getFirst().message();
            return "Program: " + path + " is not a Host IR dump: " + why.lines().findFirst().orElse("");
        }
    }

    /**
     * The workspace file at {@code path}; null when the text is no file's path yet (a person typing {@code /d}: the
     * workspace refuses a path without a project and a name with an exception, not an answer).
     */
    private static IFile workspaceFile(String path) {
        if (!ResourcesPlugin.getWorkspace().validatePath(path, IResource.FILE).isOK()) return null;
        return ResourcesPlugin.getWorkspace().getRoot().getFile(org.eclipse.core.runtime.Path.fromPortableString(path));
    }
}
