package org.hostir.studio.ui.launch;

import java.util.Map;

import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;

/** The launch configuration attributes of a "Host IR Program" and their mapping to {@link LaunchSettings}. */
public final class LaunchAttributes {
    public static final String TYPE_ID = "org.hostir.studio.ui.launch.hostIrProgram";
    private static final String P = "org.hostir.studio.launch.";
    public static final String FILE = P + "file";
    public static final String SYMBOLS = P + "symbols";
    public static final String BACKEND = P + "backend";
    public static final String DEVICES = P + "devices";
    public static final String STREAMS = P + "streams";
    public static final String ITERATIONS = P + "iterations";
    public static final String WARMUP = P + "warmup";
    public static final String VALIDATE = P + "validate";
    public static final String OPTIONS = P + "options";
    public static final String PROFILE = P + "profile";
    /** The simulation's MoE routing and capacity factor ({@code --routing}, {@code --capacity-factor}). */
    public static final String ROUTING = P + "routing";
    public static final String CAPACITY_FACTOR = P + "capacityFactor";
    /**
     * Debug mode only: the workspace path of a Host IR dump whose program every rank runs instead of the lowering's
     * ({@code hirstudio debug --program}); absent or empty: the lowering's. Kept apart from {@link LaunchSettings},
     * the run's settings, since {@code hirstudio run} has no such argument.
     */
    public static final String PROGRAM = P + "debugProgram";

    private LaunchAttributes() {}

    public static LaunchSettings read(ILaunchConfiguration c) throws CoreException {
        LaunchSettings d = LaunchSettings.DEFAULTS;
        return new LaunchSettings(c.getAttribute(FILE, d.file()), c.getAttribute(SYMBOLS, Map.<String, String>of()),
                c.getAttribute(BACKEND, d.backend()), c.getAttribute(DEVICES, d.devices()),
                c.getAttribute(STREAMS, d.streams()), c.getAttribute(ITERATIONS, d.iterations()),
                c.getAttribute(WARMUP, d.warmup()), c.getAttribute(VALIDATE, d.validate()),
                c.getAttribute(OPTIONS, Map.<String, String>of()), c.getAttribute(PROFILE, d.profile()),
                c.getAttribute(ROUTING, d.routing()), c.getAttribute(CAPACITY_FACTOR, d.capacityFactor()));
    }

    public static void write(LaunchSettings s, ILaunchConfigurationWorkingCopy c) {
        c.setAttribute(FILE, s.file());
        c.setAttribute(SYMBOLS, s.symbols());
        c.setAttribute(BACKEND, s.backend());
        c.setAttribute(DEVICES, s.devices());
        c.setAttribute(STREAMS, s.streams());
        c.setAttribute(ITERATIONS, s.iterations());
        c.setAttribute(WARMUP, s.warmup());
        c.setAttribute(VALIDATE, s.validate());
        c.setAttribute(OPTIONS, s.options());
        c.setAttribute(PROFILE, s.profile());
        c.setAttribute(ROUTING, s.routing());
        c.setAttribute(CAPACITY_FACTOR, s.capacityFactor());
    }
}
