package org.hostir.studio.ui.debug;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.model.LaunchConfigurationDelegate;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.launch.HostIrLaunchDelegate;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.launch.LaunchedFileSave;

/**
 * Debug As > Host IR Program: the configuration's fusion, devices, symbols and lowering options, run in this
 * process on the CPU backend, or CUDA (stops synchronized, communications posted with their whole team), under the
 * engine's debugger (sim is refused in one line saying why, {@code engine.DebugBackends}; auto means the CPU here),
 * with the file's enabled node breakpoints. With a Program (the
 * Main tab's, {@link LaunchAttributes#PROGRAM}), every rank runs that Host IR dump's program instead of the
 * lowering's (as {@code hirstudio debug --program} does: a hand-edited program, such as one that deadlocks), with
 * the breakpoints on the dump's lines as well.
 */
public final class HostIrDebugDelegate extends LaunchConfigurationDelegate {
    @Override
    public void launch(ILaunchConfiguration configuration, String mode, ILaunch launch, IProgressMonitor monitor)
            throws CoreException {
        LaunchSettings settings = LaunchAttributes.read(configuration);
        var refused = settings.debugRefusal();
        if (refused.isPresent()) throw new CoreException(Status.error("Backend " + settings.backend() + ": "
                + refused.get()));
        IFile file = HostIrLaunchDelegate.fusionFile(settings.file());
        Map<String, String> options = new HashMap<>(settings.options());
        options.putIfAbsent("numberOfStreams", Integer.toString(settings.streams()));
        Map<String, Long> symbols = new HashMap<>();
        settings.symbols().forEach((k, v) -> symbols.put(k, Long.parseLong(v)));
        String programPath = configuration.getAttribute(LaunchAttributes.PROGRAM, "");
        IFile program = programPath.isEmpty() ? null : dumpFile(programPath);
        DebugSession session;
        LoweringOptions lowering;
        try {
            lowering = LoweringOptions.parse(options);
            LoadedFusion loaded = Engine.load(new FusionSource.File(Path.of(file.getLocation().toOSString()),
                    file.getFullPath().toString()), settings.devices(), symbols);
            var breakpoints = RunTarget.breakpoints(file, program).stream().map(NodeBreakpoint::toEngine).toList();
            session = program == null ? Engine.debug(loaded, Engine.compile(loaded, lowering), breakpoints, false, 42,
                    settings.debugBackend())
                    : Engine.debug(loaded, Engine.dumpPrograms(Path.of(program.getLocation().toOSString()),
                            settings.devices()), lowering.numberOfStreams(), breakpoints, false, 42,
                            settings.debugBackend());
        } catch (EngineFailure e) {
            throw new CoreException(Status.error(String.join("\n", e.lines())));
        } catch (LoweringException e) {
            throw new CoreException(Status.error(String.join("; ", e.errors().stream().map(x -> x.format())
                    .toList())));
        }
        RunTarget target = new RunTarget(launch, file, program, session, lowering.nvFuser());
        launch.addDebugTarget(target);
        target.start();
    }

    private static IFile dumpFile(String workspacePath) throws CoreException {
        IFile dump = ResourcesPlugin.getWorkspace().getRoot().getFile(
                org.eclipse.core.runtime.Path.fromPortableString(workspacePath));
        if (!dump.exists() || dump.getLocation() == null) {
            throw new CoreException(Status.error("the Host IR dump " + workspacePath + " to debug does not exist"));
        }
        return dump;
    }

    /** Offers to save the editors of the fusion and the Program, by the Run launch's rule ({@link LaunchedFileSave}). */
    @Override
    protected boolean saveBeforeLaunch(ILaunchConfiguration configuration, String mode, IProgressMonitor monitor) {
        return LaunchedFileSave.offer(configuration, mode);
    }

    /** Nothing to build: the engine lowers the file itself. */
    @Override
    protected org.eclipse.core.resources.IProject[] getBuildOrder(ILaunchConfiguration c, String mode) { return null; }

    @Override
    public boolean buildForLaunch(ILaunchConfiguration c, String mode, IProgressMonitor monitor) { return false; }

}
