package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.cli.Arguments;
import org.hostir.studio.cli.Command;
import org.hostir.studio.cli.Commands;
import org.hostir.studio.cli.Main;
import org.hostir.studio.cli.NotImplementedCommand;
import org.junit.jupiter.api.Test;

/** Dispatch and exit codes of {@code hirstudio}, run in-process. */
class MainTest {

    @Test
    void unknownOrMissingCommandsPrintOneErrorAndTheUsage() {
        CliRun r = CliRun.run("frobnicate");
        assertEquals(2, r.exitCode());
        assertEquals("error: unknown command 'frobnicate'", r.errLines().getFirst());
        assertTrue(r.err().contains("usage: hirstudio <command> [arguments]"), r.err());
        assertEquals(1, r.errLines().stream().filter(l -> l.startsWith("error:")).count());
        CliRun none = CliRun.run();
        assertEquals(2, none.exitCode());
        assertEquals("error: missing command", none.errLines().getFirst());
    }

    @Test
    void helpGoesToStdoutWithExit0() {
        CliRun r = CliRun.run("--help");
        assertEquals(0, r.exitCode());
        for (String c : List.of("check", "lower", "run", "bench", "studio")) {
            assertTrue(r.out().contains("\n  " + c), c + " missing from\n" + r.out());
        }
        CliRun check = CliRun.run("check", "--help");
        assertEquals(0, check.exitCode());
        assertEquals("usage: hirstudio check FILE.fusion [--devices N] [--nvfuser 2025-06|2026-04] [--set SYM=N ...]"
                + " [--option KEY=VALUE ...]",
                check.outLines().getFirst());
        // check lowers every rank, so it takes the lowering options too
        for (String c : List.of("check", "lower", "run")) {
            CliRun help = CliRun.run(c, "--help");
            assertTrue(help.out().endsWith(Arguments.loweringOptionHelp()), help.out());
        }
    }

    @Test
    void commandsOfLaterIssuesSaySoWithExit2() {
        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("run", new NotImplementedCommand("run", "run FILE", "runs", "lowering/execution issues"));
        CliRun r = CliRun.run(commands, n -> null, "run", "x.fusion", "--devices", "2");
        assertEquals(2, r.exitCode());
        assertEquals(List.of("error: 'run' is not implemented yet (see the lowering/execution issues)"), r.errLines());
        // the standard table's placeholders (until their issues replace them) behave the same way
        for (Command c : Commands.standard().values()) {
            if (c instanceof NotImplementedCommand p) {
                CliRun s = CliRun.run(p.name(), "x.fusion");
                assertEquals(2, s.exitCode(), p.name());
                assertEquals(List.of("error: '" + p.name() + "' is not implemented yet (see the " + p.issue() + ")"),
                        s.errLines());
            }
        }
    }

    /** A command that fails the way a bug does. */
    record Broken() implements Command {
        public String name() { return "broken"; }

        public String usage() { return "broken"; }

        public String summary() { return "throws"; }

        public int run(List<String> args, PrintStream out, PrintStream err) {
            throw new IllegalStateException("invariant\nviolated");
        }
    }

    @Test
    void anInternalErrorIsOneLineWithoutStackTraceUnlessDebugging() {
        Map<String, Command> commands = new LinkedHashMap<>(Commands.standard());
        commands.put("broken", new Broken());
        CliRun r = CliRun.run(commands, name -> null, "broken");
        assertEquals(3, r.exitCode());
        assertEquals(List.of("internal error: java.lang.IllegalStateException: invariant violated (a bug in hirstudio;"
                + " HIRSTUDIO_DEBUG=1 prints the stack trace)"), r.errLines());
        CliRun debug = CliRun.run(commands, name -> name.equals(Main.DEBUG_VARIABLE) ? "1" : null, "broken");
        assertEquals(3, debug.exitCode());
        assertEquals("internal error: java.lang.IllegalStateException: invariant violated", debug.errLines().getFirst());
        assertTrue(debug.err().contains("\tat "), "a stack trace with HIRSTUDIO_DEBUG=1:\n" + debug.err());
    }

    @Test
    void theDispatchTableIsExtensible() {
        Map<String, Command> commands = new LinkedHashMap<>(Commands.standard());
        commands.put("lower", new Command() {
            public String name() { return "lower"; }

            public String usage() { return "lower FILE"; }

            public String summary() { return "replaced"; }

            public int run(List<String> args, PrintStream out, PrintStream err) {
                out.println("lowered " + args);
                return 0;
            }
        });
        CliRun r = CliRun.run(commands, n -> null, "lower", "a.fusion");
        assertEquals(0, r.exitCode());
        assertEquals("lowered [a.fusion]\n", r.out());
    }
}
