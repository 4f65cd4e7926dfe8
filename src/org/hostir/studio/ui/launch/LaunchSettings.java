package org.hostir.studio.ui.launch;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.hostir.studio.engine.DebugBackends;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.engine.RunRequest.BackendChoice;
import org.hostir.studio.exec.sim.Routing;
import org.hostir.studio.exec.sim.RoutingModel;

/**
 * What a "Host IR Program" launch configuration holds, as plain values, and the engine command line it becomes.
 * Kept free of Eclipse types so the mapping from settings to {@code hirstudio run} arguments is easy to check.
 *
 * @param file       the workspace path of the .fusion file
 * @param symbols    symbol bindings, {@code M -> 64}
 * @param backend    auto, cpu, cuda, or {@value #CUDA_SHARING_GPUS}: more ranks than GPUs ({@code --share-gpus},
 *                   point-to-point over the copy engines)
 * @param options    lowering options ({@code allgather -> p2p}, ...), passed as {@code --option KEY=VALUE}
 * @param profile    the simulated machine when the backend is {@value #SIM}: a built-in profile's name or a
 *                   profile file ({@code --profile}); ignored by the other backends
 * @param routing    how the simulation routes MoE tokens to experts ({@code --routing uniform|zipf:S|histogram:FILE});
 *                   {@value #SIM} only
 * @param capacityFactor what an expert takes before dropping tokens ({@code --capacity-factor F|none}); {@value #SIM}
 *                   only
 */
public record LaunchSettings(String file, Map<String, String> symbols, String backend, int devices, int streams,
                             int iterations, int warmup, boolean validate, Map<String, String> options,
                             String profile, String routing, String capacityFactor) {
    /** The simulation's routing and capacity when none is chosen: what {@code run} takes without the flags. */
    public static final String DEFAULT_ROUTING = "uniform", DEFAULT_CAPACITY = "none";
    public static final String CUDA_SHARING_GPUS = "cuda-sharing-gpus";
    /** The simulation backend: the run is predicted for the machine of {@link #profile()}. */
    public static final String SIM = RunCommandLine.SIM;
    public static final LaunchSettings DEFAULTS = new LaunchSettings("", Map.of(), "auto", 2, 4, 3, 1, true,
            Map.of());

    public LaunchSettings {
        symbols = Map.copyOf(symbols);
        options = Map.copyOf(options);
        if (profile == null || profile.isBlank()) profile = RunRequest.DEFAULT_PROFILE;
        routing = routing == null || routing.isBlank() ? DEFAULT_ROUTING : routing.strip();
        capacityFactor = capacityFactor == null || capacityFactor.isBlank() ? DEFAULT_CAPACITY : capacityFactor.strip();
    }

    /** Settings with the default MoE routing of a simulation. */
    public LaunchSettings(String file, Map<String, String> symbols, String backend, int devices, int streams,
                          int iterations, int warmup, boolean validate, Map<String, String> options, String profile) {
        this(file, symbols, backend, devices, streams, iterations, warmup, validate, options, profile, null, null);
    }

    /** Settings with the default simulation profile. */
    public LaunchSettings(String file, Map<String, String> symbols, String backend, int devices, int streams,
                          int iterations, int warmup, boolean validate, Map<String, String> options) {
        this(file, symbols, backend, devices, streams, iterations, warmup, validate, options, null);
    }

    public LaunchSettings withFile(String f) {
        return new LaunchSettings(f, symbols, backend, devices, streams, iterations, warmup, validate, options,
                profile, routing, capacityFactor);
    }

    /**
     * Why the routing or capacity does not read ({@code 'zipf:x': the Zipf exponent ...}), or empty; a histogram
     * file is read by the run, which names a missing or malformed one.
     */
    public Optional<String> routingProblem() {
        try {
            Routing.parse(routing, histogram -> new long[] {1});
        } catch (IllegalArgumentException e) {
            return Optional.of("Routing: " + e.getMessage());
        }
        try {
            RoutingModel.capacityFactor(capacityFactor);
        } catch (IllegalArgumentException e) {
            return Optional.of("Capacity factor: " + e.getMessage());
        }
        return Optional.empty();
    }

    public boolean predicted() { return backend.equals(SIM); }

    /** Why Debug As does not run these settings' backend ({@link DebugBackends}), or empty when it does. */
    public Optional<String> debugRefusal() { return DebugBackends.refusal(debugBackend()); }

    /** The backend Debug As runs these settings on (CUDA sharing GPUs: CUDA, one GPU per rank). */
    public BackendChoice debugBackend() {
        return switch (backend) {
            case "cpu" -> BackendChoice.CPU;
            case SIM -> BackendChoice.SIM;
            case "cuda", CUDA_SHARING_GPUS -> BackendChoice.CUDA;
            default -> BackendChoice.AUTO; // auto, and a name no tab offers: the debugger's own, the CPU
        };
    }

    /** The arguments after the engine's main class, for the file at {@code location}. */
    public List<String> runArguments(Path location, Path trace) {
        boolean sharing = backend.equals(CUDA_SHARING_GPUS);
        return new RunCommandLine(location, sharing ? "cuda" : backend, devices, streams, iterations, warmup, trace,
                validate, sharing, symbols, options, predicted() ? profile : null, predicted() ? routing : null,
                predicted() ? capacityFactor : null).arguments();
    }

    /**
     * The run as the Timeline's "Run on CPU" settings spell it ({@code devices=2 KEY=VALUE ... SYMBOL=N}), so that
     * the Timeline can predict a launched run's program (its Predict); null for a prediction itself.
     */
    public String timelineSettings() {
        if (predicted() || backend.equals(CUDA_SHARING_GPUS)) return null;
        StringBuilder line = new StringBuilder("devices=" + devices);
        new TreeMap<>(options).forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        new TreeMap<>(symbols).forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        return line.toString();
    }

    /**
     * The program the run ran, as the Lowering view takes it for Show In ({@code devices=N KEY=VALUE ...}, the
     * streams as {@code numberOfStreams}): every run has one, a prediction on any number of devices too (issue 35:
     * the Timeline's link from a bar of a predicted 64-device run selected that node id in the view's own 2-device
     * program, an EndCoalescing for a recv).
     */
    public String loweringShown() {
        StringBuilder line = new StringBuilder("devices=" + devices);
        loweringOptions().forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        return line.toString();
    }

    /**
     * The lowering options the run names, by key: {@link #options()} and the streams as {@code numberOfStreams}
     * (unless the options name it themselves). The options a run does not name are the lowering's defaults.
     */
    public Map<String, String> loweringOptions() {
        Map<String, String> all = new TreeMap<>(options);
        all.putIfAbsent("numberOfStreams", Integer.toString(streams));
        return all;
    }

    /** The Timeline's title of a run of {@code file}: a prediction says so, with its machine. */
    public String timelineTitle(String file) {
        return predicted() ? file + " \u2014 predicted for " + devices + " x " + profile + " (simulated, not measured)"
                : file;
    }

    /** {@code M=64, K=128} -> map; blanks ignored. Returns null when a part is not {@code NAME=INTEGER}. */
    public static Map<String, String> parseSymbols(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : text.split("[,\\s]+")) {
            if (part.isBlank()) continue;
            int eq = part.indexOf('=');
            if (eq <= 0 || !part.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_]*")
                    || !part.substring(eq + 1).matches("[0-9]+")) {
                return null;
            }
            out.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return out;
    }

    public static String formatSymbols(Map<String, String> symbols) {
        return String.join(", ", new TreeMap<>(symbols).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList());
    }
}
