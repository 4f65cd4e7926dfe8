package org.hostir.studio.cli;

import java.io.PrintStream;

import org.hostir.studio.engine.EngineFailure;

/** An engine failure on the console: its lines on stderr, and the exit code its kind calls for. */
final class Failures {
    private Failures() {}

    static int report(EngineFailure failure, PrintStream err) {
        failure.lines().forEach(err::println);
        return switch (failure.kind()) {
            case BAD_INPUT -> ExitCode.BAD_INPUT;
            case RUN_FAILED -> ExitCode.FAILED;
        };
    }
}
