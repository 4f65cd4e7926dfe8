package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.ValidatePass;

/**
 * {@code hirstudio demo [--devices N] [--trace OUT.json]}: seed 000's AG+matmul with the P2P allgather, end to
 * end on the default backend: the lowered program of rank 0, a validated run with timings and overlap figures,
 * and a Chrome trace to open in Perfetto.
 */
public final class DemoCommand implements Command {
    /** The demo is the seeds' AG+matmul: lowered as the seeds' nvFuser (2025-06) lowers it. */
    private static final LoweringOptions SEEDS = LoweringOptions.DEFAULTS.with(ValidatePass.NVFUSER,
            NvFuserGeneration.V2025_06);

    static final String EXAMPLE = "examples/seeds/ag_matmul_p2p.fusion";
    /** Sizes that give the run measurable work, yet validate in a second on the CPU backend. */
    private static final Map<String, Long> SIZES = Map.of("M", 64L, "K", 256L, "N", 256L);
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--devices", "--trace"), Set.of(),
            Set.of());

    @Override
    public String name() { return "demo"; }

    @Override
    public String usage() { return "demo [--devices N] [--trace OUT.json]"; }

    @Override
    public String summary() { return "lower, run, validate and trace seed 000's AG+matmul (P2P) on this machine"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        if (!a.positionals().isEmpty()) throw new UsageException("demo takes no file");
        Path example = locate();
        if (example == null) {
            err.println("error: " + EXAMPLE + ": the demo's example is not here (run it from the repository root)");
            return ExitCode.BAD_INPUT;
        }
        int devices = a.devices();
        Path trace = Path.of(a.value("--trace").orElse("target/demo/ag_matmul_p2p.trace.json"));
        out.println("== lowering " + example + " for rank 0 of " + devices + " (hirstudio lower --passes shows each"
                + " pass)");
        try {
            LoadedFusion loaded = Engine.load(new FusionSource.File(example), devices, Map.of());
            out.print(HostIrPrinter.print(Engine.lowerRank(loaded, SEEDS, 0), NvFuserGeneration.V2025_06));
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        out.println("== running on every rank, validated against the unsharded reference, with " + sizes()
                + ": the file's defaults are the seed test's tiny sizes, too small to time; the same run is"
                + " ./hirstudio run " + EXAMPLE + " --devices " + devices + " " + sizes().replace(",", "")
                .replaceAll("([A-Z]+)=", "--set $1=") + " --warmup 1 --iterations 3 --validate");
        RunRequest request = new RunRequest(RunRequest.BackendChoice.AUTO, devices, SEEDS, 3, 1,
                true, RunRequest.DEFAULT_SEED, RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false);
        return new RunFlow(example.toString(), SIZES, request, Optional.of(trace), Optional.empty(),
                false).run(out, err);
    }

    /** {@code M=64, K=256, N=256}, in the file's order of symbols. */
    private static String sizes() {
        return String.join(", ", List.of("M=" + SIZES.get("M"), "K=" + SIZES.get("K"), "N=" + SIZES.get("N")));
    }

    private static Path locate() {
        List<Path> roots = new ArrayList<>(List.of(Path.of("")));
        String home = System.getProperty("hirstudio.home");
        if (home != null) roots.add(Path.of(home));
        for (Path root : roots) {
            Path p = root.resolve(EXAMPLE);
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }
}
