package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code hirstudio demo [--devices N] [--trace OUT.json]}: seed 000's AG+matmul with the P2P allgather, end to
 * end on the default backend: the lowered program of rank 0, a validated run with timings and overlap figures,
 * and a Chrome trace to open in Perfetto.
 */
public final class DemoCommand implements Command {
    static final String EXAMPLE = "examples/seeds/ag_matmul_p2p.fusion";
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
            err.println("error: " + EXAMPLE + ":0: the demo's example is not here (run it from the repository root)");
            return ExitCode.BAD_INPUT;
        }
        String devices = Integer.toString(a.devices());
        String trace = a.value("--trace").orElse("target/demo/ag_matmul_p2p.trace.json");
        out.println("== lowering " + example + " for rank 0 of " + devices + " (hirstudio lower --passes shows each"
                + " pass)");
        int lowered = new LowerCommand().run(List.of(example.toString(), "--devices", devices), out, err);
        if (lowered != ExitCode.OK) return lowered;
        out.println("== running on every rank, validated against the unsharded reference");
        List<String> run = new ArrayList<>(List.of(example.toString(), "--devices", devices, "--set", "M=64", "--set",
                "K=256", "--set", "N=256", "--warmup", "1", "--iterations", "3", "--validate", "--trace", trace));
        return new RunCommand().run(run, out, err);
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
