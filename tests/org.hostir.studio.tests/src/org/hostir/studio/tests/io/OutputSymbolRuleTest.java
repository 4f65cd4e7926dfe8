package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.junit.jupiter.api.Test;

/**
 * A reshape or expand whose output is sized by a symbol that no fusion input carries is refused with its shape
 * rule at the op's line: the unsharded reference sizes such outputs from the inputs alone, and this reached it
 * as an internal error ("size -1 out of range") after the run.
 */
class OutputSymbolRuleTest {
    private static Diagnostic refusal(String axesIn, String axesOut, String op) {
        String text = """
                {"format": "hostir-fusion/1", "name": "sym", "symbols": {"M": 8, "N": 6, "K": 4},
                 "tensors": [
                   {"name": "p", "dtype": "float", "axes": %s},
                   {"name": "q", "dtype": "float", "axes": %s}],
                 "ops": [{"op": "%s", "inputs": ["p"], "output": "q"}],
                 "inputs": ["p"], "outputs": ["q"]}""".formatted(axesIn, axesOut, op);
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.load(new FusionSource.Text(text, "sym.fusion"), 1, Map.of()));
        assertEquals(1, e.diagnostics().size(), e.getMessage());
        return e.diagnostics().getFirst();
    }

    @Test
    void aReshapeIntoSymbolsNoInputCarriesIsRefused() {
        Diagnostic d = refusal("[\"M\", 24]", "[\"M\", \"N\", \"K\"]", "reshape");
        assertEquals("shape.reshape", d.rule());
        assertEquals(5, d.line(), "the op's line");
        assertTrue(d.message().contains("output axis 1 has extent N (6), a symbol that no fusion input carries"),
                d.message());
    }

    @Test
    void anExpandToASymbolNoInputCarriesIsRefused() {
        Diagnostic d = refusal("[\"M\", {\"extent\": 1, \"iter\": \"broadcast\"}]", "[\"M\", \"N\"]", "expand");
        assertEquals("shape.expand", d.rule());
        assertTrue(d.message().contains("output axis 1 has extent N (6)"), d.message());
    }

    @Test
    void theSameReshapeWithNumbersLoads() throws Exception {
        String text = """
                {"format": "hostir-fusion/1", "name": "sym", "symbols": {"M": 8},
                 "tensors": [
                   {"name": "p", "dtype": "float", "axes": ["M", 24]},
                   {"name": "q", "dtype": "float", "axes": ["M", 6, 4]}],
                 "ops": [{"op": "reshape", "inputs": ["p"], "output": "q"}],
                 "inputs": ["p"], "outputs": ["q"]}""";
        assertEquals(2, Engine.load(new FusionSource.Text(text, "num.fusion"), 1, Map.of()).fusion().tensors().size());
    }
}
