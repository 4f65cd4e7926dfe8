package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;
import org.junit.jupiter.api.Test;

/** The one-line diagnostic format of DESIGN 3 and the exception that carries diagnostics. */
class DiagnosticTest {

    @Test
    void formatsAsOneLine() {
        Diagnostic d = new Diagnostic("examples/x.fusion", 12, "$.tensors[1].axes[0].parallel", Rule.SCHEMA_ENUM,
                "unknown parallel type 'DIDz'");
        assertEquals("error: examples/x.fusion:12: $.tensors[1].axes[0].parallel: unknown parallel type 'DIDz'"
                + " [schema.enum]", d.format());
        assertEquals("schema.enum", d.rule());
    }

    @Test
    void unknownLinesAndFilesAreLeftOutNotInvented() {
        assertEquals("error: <fusion>: T2: bad [r]", new Diagnostic(null, 0, "T2", "r", "bad").format());
        assertEquals(0, new Diagnostic("f", -5, "p", "r", "m").line());
    }

    @Test
    void controlCharactersNeverBreakTheLine() {
        String line = new Diagnostic("f\n", 1, "$.a\r", "r", "x\ny\u0007").format();
        assertEquals("error: f\\u000a:1: $.a\\u000d: x\\u000ay\\u0007 [r]", line);
        assertTrue(line.lines().count() == 1);
    }

    @Test
    void anExceptionNeedsDiagnosticsAndSummarisesThem() {
        assertThrows(IllegalArgumentException.class, () -> new FusionFileException(List.of()));
        Diagnostic a = new Diagnostic("f", 1, "$", "r", "one");
        Diagnostic b = new Diagnostic("f", 2, "$", "r", "two");
        FusionFileException e = new FusionFileException(List.of(a, b));
        assertEquals(List.of(a, b), e.diagnostics());
        assertEquals("error: f:1: $: one [r] (and 1 more)", e.getMessage());
    }
}
