package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * A subcommand of {@code hirstudio}. It parses its own arguments (with {@link ArgumentParser}) and returns the
 * exit code; it never calls {@code System.exit}, so tests run it in-process.
 */
public interface Command {

    /** The word after {@code hirstudio}. */
    String name();

    /** One line: the arguments it takes, e.g. {@code check FILE.fusion [--devices N] [--set SYM=N ...]}. */
    String usage();

    /** One line: what it does. */
    String summary();

    /**
     * Runs the command on the arguments after its name.
     *
     * @throws UsageException when the arguments are wrong (Main prints the message and the usage, exit 2)
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws UsageException;
}
