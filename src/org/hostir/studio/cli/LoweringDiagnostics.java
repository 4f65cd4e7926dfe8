package org.hostir.studio.cli;

import java.io.PrintStream;

import org.hostir.studio.io.FusionLocator;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;

/** Lowering errors as DESIGN 3's one-line {@code error: <file>:<line>: <where>: <what>}, pointing into the file. */
final class LoweringDiagnostics {
    private LoweringDiagnostics() {}

    static void print(LoweringException e, LoadedFusion loaded, PrintStream err) {
        for (LoweringError error : e.errors()) err.println(format(error, loaded));
    }

    static String format(LoweringError error, LoadedFusion loaded) {
        int line = 0;
        String where = error.subject();
        if (error.tensorId() >= 0 && error.tensorId() < loaded.tensors().size()) {
            FusionLocator.Location at = loaded.locator().tensor(loaded.tensors().get(error.tensorId()));
            line = at.line();
        }
        return "error: " + loaded.source().file() + ":" + line + ": " + where + ": " + error.message() + " ["
                + error.rule() + "]";
    }
}
