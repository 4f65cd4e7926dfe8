package org.hostir.studio.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** The dispatch table of {@code hirstudio}: subcommand name -> command, in the order usage lists them. */
public final class Commands {
    private Commands() {}

    /** The standard commands. To add one, put it here (replacing its placeholder). */
    public static Map<String, Command> standard() {
        Map<String, Command> commands = new LinkedHashMap<>();
        add(commands, new CheckCommand());
        add(commands, new LowerCommand());
        add(commands, new DumpCommand());
        add(commands, new DiffCommand());
        add(commands, new ExportCommand());
        add(commands, new RunCommand());
        add(commands, new DebugCommand());
        add(commands, new BenchCommand());
        add(commands, new CalibrateCommand());
        add(commands, new SweepCommand());
        add(commands, new TraceCommand());
        add(commands, new DemoCommand());
        add(commands, new NotImplementedCommand("studio", "studio", "start the Eclipse-based Studio", "UI issues"));
        return commands;
    }

    private static void add(Map<String, Command> commands, Command c) {
        commands.put(c.name(), c);
    }
}
