package org.hostir.studio.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.hostir.studio.diag.TerminalText;

/**
 * {@code hirstudio}: dispatches to a subcommand and turns every outcome into an exit code. User errors are one
 * line each on stderr (exit 2), failed runs exit 1; a Java heap that runs out is a failed run too (a resource, not
 * a bug). Exit 3 is for bugs only: an unexpected exception is one {@code internal error:} line that says how to get
 * the stack trace, which {@code HIRSTUDIO_DEBUG=1} prints after it.
 */
public final class Main {
    public static final String DEBUG_VARIABLE = "HIRSTUDIO_DEBUG";

    private final Map<String, Command> commands;
    private final List<String> order;
    private final Function<String, String> environment;

    public Main() {
        this(Commands.standard(), System::getenv);
    }

    /** For tests and embedders: another dispatch table, another environment. */
    public Main(Map<String, Command> commands, Function<String, String> environment) {
        this.commands = Map.copyOf(commands);
        this.order = List.copyOf(commands.keySet());
        this.environment = environment;
    }

    public static void main(String[] args) {
        System.exit(new Main().run(args, System.out, System.err));
    }

    /** Runs {@code hirstudio args...}; returns the exit code. What it prints passes {@link TerminalStream}. */
    public int run(String[] args, PrintStream terminalOut, PrintStream terminalErr) {
        PrintStream out = TerminalStream.of(terminalOut);
        PrintStream err = TerminalStream.of(terminalErr);
        try {
            return dispatch(Arrays.asList(args), out, err);
        } catch (OutOfMemoryError e) {
            String command = args.length == 0 ? "hirstudio" : TerminalText.escape(args[0]);
            err.println("error: " + command + ": the Java heap ("
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB) ran out: lower the sizes or --devices,"
                    + " or raise -Xmx (HIRSTUDIO_JAVA_OPTS)");
            debug(e, err);
            return ExitCode.FAILED;
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            boolean debug = debug(e, null);
            err.println("internal error: " + oneLine(e) + (debug ? "" : " (a bug in hirstudio; " + DEBUG_VARIABLE
                    + "=1 prints the stack trace)"));
            debug(e, err);
            return ExitCode.INTERNAL;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int dispatch(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println("error: missing command");
            err.print(usage());
            return ExitCode.BAD_INPUT;
        }
        String name = args.getFirst();
        if (name.equals("help") || name.equals("--help") || name.equals("-h")) {
            out.print(usage());
            return ExitCode.OK;
        }
        Command c = commands.get(name);
        if (c == null) {
            err.println("error: unknown command '" + TerminalText.escape(name) + "'");
            err.print(usage());
            return ExitCode.BAD_INPUT;
        }
        List<String> rest = args.subList(1, args.size());
        if (rest.contains(ArgumentParser.HELP) || rest.contains("-h")) {
            out.println("usage: hirstudio " + c.usage());
            out.println("  " + c.summary());
            if (c.usage().contains("--option")) out.print(Arguments.loweringOptionHelp());
            return ExitCode.OK;
        }
        try {
            return c.run(rest, out, err);
        } catch (UsageException e) {
            err.println(TerminalText.escape("error: " + name + ": " + e.getMessage()));
            err.println("usage: hirstudio " + c.usage());
            return ExitCode.BAD_INPUT;
        }
    }

    /** The usage text: one line per command. */
    public String usage() {
        StringBuilder b = new StringBuilder("usage: hirstudio <command> [arguments]\ncommands:\n");
        for (String name : order) {
            Command c = commands.get(name);
            b.append("  ").append(c.usage()).append('\n');
            b.append("      ").append(c.summary()).append('\n');
        }
        b.append("Run 'hirstudio <command> --help' for one command's arguments.\n");
        return b.toString();
    }

    /** Whether {@code HIRSTUDIO_DEBUG=1}; if so and {@code err} is given, prints the stack trace there. */
    private boolean debug(Throwable e, PrintStream err) {
        boolean on = "1".equals(environment.apply(DEBUG_VARIABLE));
        if (on && err != null) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            err.print(trace);
        }
        return on;
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage();
        String text = e.getClass().getName() + (m == null ? "" : ": " + m);
        return TerminalText.escape(text.replaceAll("\\s+", " "));
    }
}
