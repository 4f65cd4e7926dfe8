package org.hostir.studio.ui.launch;

import java.util.Optional;

/**
 * What a launched run's console output says about validation, and the Timeline title it gets: a run validates
 * by default, and one whose validation FAILs (exit 1, trace written) still opens its trace, with the failure
 * marked on the title, rather than hiding behind an error dialog. Eclipse-free, so it is checked without a
 * workbench.
 */
public final class RunOutcome {
    /** Where the engine's validation line starts (as DESIGN 3 fixes it). */
    public static final String VALIDATION = "validation: ";
    public static final String FAIL = VALIDATION + "FAIL";

    private RunOutcome() {}

    /** The last {@code validation: } line of {@code output}, if it has one. */
    public static Optional<String> validationLine(String output) {
        String found = null;
        for (String line : output.split("\\R")) {
            if (line.startsWith(VALIDATION)) found = line;
        }
        return Optional.ofNullable(found);
    }

    public static boolean failed(Optional<String> validationLine) {
        return validationLine.map(l -> l.startsWith(FAIL)).orElse(false);
    }

    /** The trace opens after exit 0, and after exit 1 when that was a validation FAIL (the run itself finished). */
    public static boolean opensTrace(int exit, Optional<String> validationLine) {
        return exit == 0 || exit == 1 && failed(validationLine);
    }

    /** The Timeline's title: the file, marked when validation FAILed. */
    public static String timelineTitle(String file, Optional<String> validationLine) {
        return failed(validationLine) ? file + " \u2014 validation FAIL (see the console)" : file;
    }
}
