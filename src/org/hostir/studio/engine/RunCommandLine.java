package org.hostir.studio.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.exec.Heartbeat;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.lower.ConvertToCommunicationPass;
import org.hostir.studio.lower.ValidatePass;

/**
 * The engine's {@code run} command line, spelled once: the command line parses these flags, and a front end
 * that starts the engine in another process (the Studio's launch configurations) builds its arguments here.
 * Symbol and option values stay text: the engine process checks them and reports a bad one with its diagnostic.
 *
 * @param backend  {@code auto}, {@code cpu}, {@code cuda} or {@code sim}
 * @param symbols  {@code --set} values by symbol
 * @param options  {@code --option} values by lowering option key
 * @param profile  {@code --profile} for {@code sim} (a built-in profile's name or a file), or null
 * @param routing  {@code --routing} for {@code sim}, or null (its default, uniform)
 * @param capacityFactor {@code --capacity-factor} for {@code sim}, or null (its default, none)
 * @param validate the default validation (sampled where large), else none; {@link #validatesByDefault} says
 *                 which one the flags need not spell
 */
public record RunCommandLine(Path file, String backend, int devices, int streams, int iterations, int warmup,
                             Path trace, boolean validate, boolean shareGpus, Map<String, String> symbols,
                             Map<String, String> options, String profile, String routing,
                             String capacityFactor) {
    public static final String BACKEND = "--backend", DEVICES = "--devices", STREAMS = "--streams",
            ITERATIONS = "--iterations", WARMUP = "--warmup", TRACE = "--trace", TIMEOUT = "--timeout",
            SEED = "--seed", SAVE_NPY = "--save-npy", SET = "--set", OPTION = "--option", VALIDATE = "--validate",
            LAUNCHER = "--launcher", HOST_TIMING_ONLY = "--host-timing-only", SHARE_GPUS = "--share-gpus",
            FORCE = "--force", PROFILE = "--profile", NO_VALIDATE = "--no-validate";
    /**
     * A simulation's MoE routing and expert capacity ({@code RoutingFiles}); a CPU or CUDA run's per-expert counts
     * written as a histogram the simulation reads back.
     */
    public static final String ROUTING = "--routing", CAPACITY_FACTOR = "--capacity-factor",
            WRITE_ROUTING = "--write-routing";
    /** {@code --nvfuser 2026-04}: the lowering option {@code nvfuser} (ValidatePass.NVFUSER) spelled as a flag. */
    public static final String NVFUSER = "--" + ValidatePass.NVFUSER.key();
    /** The {@code --backend} value of the simulation. */
    public static final String SIM = "sim";
    /**
     * System property: how often (ms) a run prints its progress during a long phase ({@code exec.Heartbeat});
     * the Studio passes its own value on to the runs it launches.
     */
    public static final String PROGRESS_PERIOD = Heartbeat.PERIOD;
    /** {@code --validate=full}: every element, whatever the size. */
    public static final String FULL = "full";
    /** Flags followed by one value. */
    public static final Set<String> VALUED = Set.of(BACKEND, DEVICES, STREAMS, ITERATIONS, WARMUP, TRACE, TIMEOUT,
            SEED, SAVE_NPY, PROFILE, NVFUSER, ROUTING, CAPACITY_FACTOR, WRITE_ROUTING);
    /** Flags followed by a {@code KEY=VALUE}, as often as needed. */
    public static final Set<String> REPEATED = Set.of(SET, OPTION);
    /** Flags on their own; {@code --force}: the trace and {@code --save-npy} may replace files of other tools. */
    public static final Set<String> SWITCHES = Set.of(VALIDATE, NO_VALIDATE, LAUNCHER, HOST_TIMING_ONLY, SHARE_GPUS,
            FORCE);
    /** Switches that may carry a value after {@code =}: {@code --validate=full}. */
    public static final Set<String> VALUED_SWITCHES = Set.of(VALIDATE);

    public RunCommandLine {
        symbols = Map.copyOf(symbols);
        options = Map.copyOf(options);
    }

    /** A command line naming no simulation profile. */
    public RunCommandLine(Path file, String backend, int devices, int streams, int iterations, int warmup, Path trace,
                          boolean validate, boolean shareGpus, Map<String, String> symbols,
                          Map<String, String> options) {
        this(file, backend, devices, streams, iterations, warmup, trace, validate, shareGpus, symbols, options, null);
    }

    /** A command line with the simulation's default routing. */
    public RunCommandLine(Path file, String backend, int devices, int streams, int iterations, int warmup, Path trace,
                          boolean validate, boolean shareGpus, Map<String, String> symbols,
                          Map<String, String> options, String profile) {
        this(file, backend, devices, streams, iterations, warmup, trace, validate, shareGpus, symbols, options, profile,
                null, null);
    }

    /**
     * Whether {@code backend} validates when no flag says: every backend but {@code sim}. A simulated run predicts
     * times; validating it means computing every rank's data on the CPU as well (issue 35: 84 s instead of 19 s at
     * 1,024 devices, 197 GiB of heap at 64 devices and M=K=N=2048), so there it is asked for with {@code --validate}.
     */
    public static boolean validatesByDefault(String backend) { return !SIM.equals(backend); }

    /**
     * The validation the flags ask for on {@code backend}: {@link ValidationMode#AUTO} (every element up to a size,
     * a sample beyond) where it {@link #validatesByDefault validates by default} and for {@code --validate} alone,
     * {@code FULL} for {@code --validate=full}, {@code OFF} for {@code --no-validate} and by default on {@code sim}.
     * {@code validateValue}: what followed {@code --validate=}, if anything. {@code saveNpy}: whether the run saves
     * its tensors, which a simulated run computes only when it validates, so there it validates unless
     * {@code --no-validate} says otherwise, which contradicts. A contradiction or another value is an
     * IllegalArgumentException whose message is the usage error.
     */
    public static ValidationMode validation(String backend, boolean validate, Optional<String> validateValue,
                                            boolean noValidate, boolean saveNpy) {
        if (validate && noValidate) throw new IllegalArgumentException(VALIDATE + " and " + NO_VALIDATE + " contradict");
        boolean computes = validatesByDefault(backend) || validate || saveNpy;
        if (noValidate && saveNpy && !validatesByDefault(backend)) {
            throw new IllegalArgumentException(SAVE_NPY + " on the " + backend + " backend saves the tensors its"
                    + " validation computes: drop " + NO_VALIDATE);
        }
        if (noValidate || !computes) return ValidationMode.OFF;
        if (validateValue.isEmpty()) return ValidationMode.AUTO;
        if (validateValue.get().equals(FULL)) return ValidationMode.FULL;
        throw new IllegalArgumentException(VALIDATE + "=" + validateValue.get() + ": expected " + VALIDATE + " or "
                + VALIDATE + "=" + FULL);
    }

    /** The arguments after the engine's main class: {@code run FILE --backend ... --option K=V}. */
    public List<String> arguments() {
        List<String> args = new ArrayList<>(List.of("run", file.toString(), BACKEND, backend, DEVICES,
                Integer.toString(devices), STREAMS, Integer.toString(streams), ITERATIONS, Integer.toString(iterations),
                WARMUP, Integer.toString(warmup)));
        if (trace != null) args.addAll(List.of(TRACE, trace.toString()));
        if (profile != null) args.addAll(List.of(PROFILE, profile));
        // the simulation's MoE routing, where one is chosen other than run's own default
        if (routing != null && !routing.equals("uniform")) args.addAll(List.of(ROUTING, routing));
        if (capacityFactor != null && !capacityFactor.equals("none")) args.addAll(List.of(CAPACITY_FACTOR, capacityFactor));
        // a flag only where the choice differs from the backend's default
        if (validate != validatesByDefault(backend)) args.add(validate ? VALIDATE : NO_VALIDATE);
        if (shareGpus) args.add(SHARE_GPUS);
        new TreeMap<>(symbols).forEach((k, v) -> args.addAll(List.of(SET, k + "=" + v)));
        Map<String, String> lowering = new TreeMap<>(options);
        // ranks that share a GPU cannot use NCCL: point-to-point goes over the copy engines
        if (shareGpus) lowering.putIfAbsent(ConvertToCommunicationPass.BACKEND.key(), "cuda");
        lowering.forEach((k, v) -> args.addAll(List.of(OPTION, k + "=" + v)));
        return args;
    }
}
