package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.hostir.studio.engine.DebugBackends;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.LoweringOptions;

/**
 * {@code hirstudio debug FILE.fusion [--break NODE[@RANK][:ITERATION][+team] ...] [--step over|into] [--max-stops N]
 * [--program DUMP] [--backend auto|cpu|cuda] [--devices N] [--set SYM=N ...] [--option KEY=VALUE ...]}: runs every
 * rank on the CPU backend (or CUDA, which synchronizes at each stop; sim is refused in one line saying why,
 * {@link DebugBackends}) under the debugger and prints the state at each stop (the IDE's Debug view shows the same stops): each rank's
 * node, loop nest and live tensors, its blocked streams, who waits for whom and any deadlock, named by its Host IR
 * nodes. NODE is a node id as the program prints it ({@code P2PCommunication 12} is 12), a node kind (every node of
 * it) or {@code all}; {@code +team} stops the whole team of a communication with RANK. After a stop every rank
 * resumes, or steps with {@code --step}. {@code --program} runs the programs of a (hand-edited) Host IR dump instead
 * of the lowering's. Exit 0 when the run ends and validates, 1
 * when it fails, deadlocks or does not validate.
 */
public final class DebugCommand implements Command {
    private static final ArgumentParser PARSER = FusionArguments.parser(Set.of("--step", "--max-stops", "--program",
            "--seed", "--backend"), Set.of("--break"), Set.of());
    private static final long DEFAULT_MAX_STOPS = 100;

    @Override
    public String name() { return "debug"; }

    @Override
    public String usage() {
        return "debug FILE.fusion [--break NODE[@RANK][:ITERATION][+team] ...] [--step over|into] [--max-stops N]"
                + " [--program DUMP] [--backend auto|cpu|cuda] [--devices N] " + Arguments.NVFUSER_USAGE + " [--set SYM=N ...] [--option KEY=VALUE ...]";
    }

    @Override
    public String summary() { return "step every rank's Host IR program on the CPU (or CUDA) backend, printing each stop"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String backend = a.value("--backend").orElse("auto");
        var choice = FusionArguments.backend(backend);
        var refused = DebugBackends.refusal(choice);
        if (refused.isPresent()) {
            err.println("error: debug --backend " + backend + ": " + refused.get());
            return ExitCode.BAD_INPUT;
        }
        FusionArguments fusion = FusionArguments.of(a);
        LoweringOptions options = fusion.options();
        String step = a.value("--step").orElse("none");
        if (!Set.of("none", "over", "into").contains(step)) {
            throw new UsageException("--step: " + step + " is not one of over, into");
        }
        long maxStops = Arguments.integer("--max-stops", a.value("--max-stops").orElse("" + DEFAULT_MAX_STOPS), 0,
                1_000_000);
        long seed = Arguments.integer("--seed", a.value("--seed").orElse("42"), 0, Long.MAX_VALUE);
        DebugSession session;
        try {
            LoadedFusion loaded = fusion.load();
            if (a.value("--program").isPresent()) {
                Path dump = Arguments.input("--program", a.value("--program").get());
                session = Engine.debug(loaded, Engine.dumpPrograms(dump, fusion.devices()), options.numberOfStreams(),
                        List.of(), true, seed, choice);
            } else {
                session = Engine.debug(loaded, Engine.compile(loaded, options), List.of(), true, seed, choice);
            }
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        try (DebugSession s = session) {
            DebugStop start = s.awaitStop(); // every rank before its first node
            s.setBreakpoints(breakpoints(a.all("--break"), s));
            return new DebugPrinter(s, options.nvFuser(), out).drive(start, step, maxStops);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return ExitCode.FAILED;
        }
    }

    /** Each {@code --break} as breakpoints: a node id, every node of a kind, or every node. */
    static List<Breakpoint> breakpoints(List<String> specs, DebugSession s) throws UsageException {
        List<Breakpoint> out = new ArrayList<>();
        for (String given : specs) {
            // NODE@RANK:ITERATION+team: the whole team of the communication stops with RANK
            boolean team = given.endsWith(Breakpoint.TEAM_SUFFIX);
            String spec = team ? given.substring(0, given.length() - Breakpoint.TEAM_SUFFIX.length()) : given;
            String node = spec.replaceAll("[@:].*$", "");
            OptionalLong r = part(spec, '@', s.ranks().size() - 1);
            OptionalInt rank = r.isPresent() ? OptionalInt.of((int) r.getAsLong()) : OptionalInt.empty();
            OptionalLong iteration = part(spec, ':', Long.MAX_VALUE);
            Set<Integer> ids = ids(node, s);
            if (ids.isEmpty()) {
                throw new UsageException("--break " + spec + ": no node " + node + " in the programs (a node id as"
                        + " the program prints it, a node kind such as P2PCommunication, or all)");
            }
            for (int id : ids) out.add(new Breakpoint(id, rank, iteration, team));
        }
        return out;
    }

    /** The number after {@code mark} in {@code spec} (up to the other mark), if there is one. */
    private static OptionalLong part(String spec, char mark, long max) throws UsageException {
        int at = spec.indexOf(mark);
        if (at < 0) return OptionalLong.empty();
        String rest = spec.substring(at + 1).replaceAll(mark == '@' ? ":.*$" : "@.*$", "");
        return OptionalLong.of(Arguments.integer("--break " + spec + (mark == '@' ? " (rank)" : " (iteration)"),
                rest, 0, max));
    }

    private static Set<Integer> ids(String node, DebugSession s) {
        Set<Integer> ids = new TreeSet<>();
        for (int r : s.ranks()) {
            for (HostNode n : s.program(r).allNodes()) {
                if (node.equals("all") || node.equals(Integer.toString(n.id()))
                        || node.equalsIgnoreCase(n.getClass().getSimpleName())) {
                    ids.add(n.id());
                }
            }
        }
        return ids;
    }
}
