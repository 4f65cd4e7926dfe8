package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.io.Diagnostic;
import org.hostir.studio.io.FusionFileException;
import org.hostir.studio.io.FusionLoader;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.io.ParsedFusion;

/**
 * {@code hirstudio check FILE.fusion [--devices N] [--set SYM=N ...]}: reads, converts and validates a fusion
 * file and prints a summary, then {@code ok}. Bad input: one {@code error:} line per diagnostic, exit 2.
 */
public final class CheckCommand implements Command {
    static final ArgumentParser PARSER = new ArgumentParser(Set.of("--devices"), Set.of("--set"), Set.of());

    @Override
    public String name() { return "check"; }

    @Override
    public String usage() { return "check FILE.fusion [--devices N] [--set SYM=N ...]"; }

    @Override
    public String summary() { return "validate a fusion file and print a summary"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        int devices = a.devices();
        Map<String, Long> symbols = a.symbols();
        try {
            LoadedFusion loaded = load(file, devices, symbols);
            out.print(FusionSummary.print(loaded));
            out.println("ok");
            return ExitCode.OK;
        } catch (FusionFileException e) {
            for (Diagnostic d : e.diagnostics()) err.println(d.format());
            return ExitCode.BAD_INPUT;
        }
    }

    /** {@link #load}, printing each diagnostic as one {@code error:} line instead of throwing. */
    static java.util.Optional<LoadedFusion> loadOrReport(String file, int devices, Map<String, Long> symbols,
                                                         PrintStream err) {
        try {
            return java.util.Optional.of(load(file, devices, symbols));
        } catch (FusionFileException e) {
            for (Diagnostic d : e.diagnostics()) err.println(d.format());
            return java.util.Optional.empty();
        }
    }

    /** Reads and loads a file, refusing {@code --set} for symbols the fusion does not have. */
    static LoadedFusion load(String file, int devices, Map<String, Long> symbols) throws FusionFileException {
        ParsedFusion parsed = FusionReader.read(Path.of(file), file);
        List<Diagnostic> unknown = new ArrayList<>();
        Set<String> known = FusionSummary.symbolNames(parsed.document());
        for (String s : symbols.keySet()) {
            if (!known.contains(s)) {
                unknown.add(new Diagnostic(file, 0, "--set " + s, "cli.set", "the fusion has no symbol '" + s
                        + "'" + (known.isEmpty() ? "" : " (its symbols: " + String.join(", ", known) + ")")));
            }
        }
        if (!unknown.isEmpty()) throw new FusionFileException(unknown);
        return FusionLoader.load(parsed, devices, symbols);
    }
}
