package org.hostir.studio.tests.exec;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.io.FusionLoader;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;

/** Loading examples and running them on the CPU backend, for the execution tests. */
final class Runs {
    private Runs() {}

    static LoadedFusion load(String example, int devices, Map<String, Long> overrides) throws Exception {
        Path file = RepoPaths.repo().resolve("examples").resolve(example + ".fusion");
        return FusionLoader.load(file, example, devices, overrides);
    }

    /** An example with every float tensor in {@code dtype} (bfloat16, half): the reduced-precision paths. */
    static LoadedFusion loadAs(String example, String dtype, int devices) throws Exception {
        Path file = RepoPaths.repo().resolve("examples").resolve(example + ".fusion");
        String text = java.nio.file.Files.readString(file).replace("\"float\"", "\"" + dtype + "\"");
        return FusionLoader.load(text, example + "." + dtype, devices);
    }

    /** An example with {@code from} replaced by {@code to} in its text (another op or dtype, say). */
    static LoadedFusion loadText(String example, int devices, String from, String to) throws Exception {
        return loadText(example, devices, from, to, Map.of());
    }

    static LoadedFusion loadText(String example, int devices, String from, String to, Map<String, Long> overrides)
            throws Exception {
        Path file = RepoPaths.repo().resolve("examples").resolve(example + ".fusion");
        String text = java.nio.file.Files.readString(file);
        if (!text.contains(from)) throw new IllegalArgumentException(example + " has no " + from);
        return FusionLoader.load(FusionReader.read(text.replace(from, to), example + ".edited"),
                devices, overrides);
    }

    static RunConfig config(LoadedFusion loaded, int devices, Map<String, String> options) {
        Map<String, Long> symbols = new HashMap<>(loaded.bindings().asMap());
        return new RunConfig(devices, symbols, LoweringOptions.parse(options), 1, 0, true, 7, 10_000);
    }

    static RunResult run(String example, int devices, Map<String, String> options) throws Exception {
        LoadedFusion loaded = load(example, devices, Map.of());
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            return Runner.run(loaded.fusion(), config(loaded, devices, options), backend, line -> { });
        }
    }
}
