package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;

/** A subcommand of DESIGN 3 that another issue implements; until then it says so and exits 2. */
public record NotImplementedCommand(String name, String usage, String summary, String issue) implements Command {

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        err.println("error: '" + name + "' is not implemented yet (see the " + issue + ")");
        return ExitCode.BAD_INPUT;
    }
}
