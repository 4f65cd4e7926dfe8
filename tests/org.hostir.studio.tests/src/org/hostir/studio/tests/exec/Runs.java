package org.hostir.studio.tests.exec;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;

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
        return new RunConfig(devices, symbols, SeedGeneration.options(options).numberOfStreams(), 1, 0, true, 7, 10_000);
    }

    static RunResult run(String example, int devices, Map<String, String> options) throws Exception {
        LoadedFusion loaded = load(example, devices, Map.of());
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            return run(loaded, devices, options, backend, line -> { });
        }
    }

    /** {@code loaded} lowered with {@code options} and run on {@code backend} (its ranks) with {@link #config}. */
    static RunResult run(LoadedFusion loaded, int devices, Map<String, String> options, Backend backend,
                         Consumer<String> progress) {
        return lowered(loaded.fusion(), config(loaded, devices, options), SeedGeneration.options(options), backend,
                progress);
    }

    /** {@code fusion} lowered through one {@link Compilation}, as the engine lowers, and run on {@code backend}. */
    static RunResult lowered(Fusion fusion, RunConfig config, LoweringOptions options, Backend backend,
                             Consumer<String> progress) {
        if (backend instanceof CudaBackend) CudaSkip.assumeKernels(fusion);
        Compilation compilation = Compilation.of(fusion, config.devices(), options, Set.of());
        return Runner.run(fusion, compilation.programs(backend::runsRank), config, backend, progress);
    }

    /** Every rank's program of {@code fusion}, as the simulator takes them. */
    static Map<Integer, HostIrContainer> programs(Fusion fusion, int devices, LoweringOptions options) {
        return Compilation.of(fusion, devices, options, Set.of()).programs(rank -> true);
    }
}
