package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.IdCounters;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.export.ExportInjectionTest;
import org.junit.jupiter.api.Test;

/**
 * The lowering's refusals and the validation rules' messages quote a tensor's name as the execution's messages do
 * ({@link Texts#quote}): a fusion built in memory may carry any name (a file's names are identifiers), and a raw
 * newline or escape sequence split the message or drove the terminal.
 */
class LoweringMessagesHostileNamesTest {
    /** One line, no raw control or bidi character, the name quoted (and so shortened) where a name belongs. */
    private static void quotedOnOneLine(String message, String name) {
        String shown = TerminalText.escape(message);
        assertTrue(message.codePoints().noneMatch(TerminalText::isUnsafe), shown);
        assertTrue(message.contains(Texts.quote(name)), "quoted " + Texts.quote(name) + " in: " + shown);
        assertTrue(message.length() < 2_000, "a long name is shortened: " + message.length());
    }

    private static Fusion example(String path, int devices) throws Exception {
        return Engine.load(new FusionSource.File(RepoPaths.repo().resolve(path)), devices, Map.of()).fusion();
    }

    private static LoweringError refusal(Fusion fusion, int devices) {
        LoweringException e = assertThrows(LoweringException.class, () -> Compilation.of(fusion, devices,
                SeedGeneration.options(Map.of()), Set.of()).programs(r -> true));
        return e.errors().getFirst();
    }

    /** A set from a split-sharded input into a Stream axis: both tensors named in the message. */
    @Test
    void aLoweringRefusalQuotesTheTensorsItNames() throws Exception {
        Fusion plain = example("examples/conformance/ag_matmul_loop_split_stream_rows.fusion", 2);
        LoweringError error = refusal(plain, 2);
        assertEquals("stream.allgather-split-input", error.rule());
        assertTrue(error.message().contains("axis 0 of 'x' is sharded"), error.message());
        for (String name : ExportInjectionTest.hostileTexts()) {
            Fusion hostile = ExportInjectionTest.relabelled(plain, id -> name + id);
            LoweringError e = refusal(hostile, 2);
            int input = plain.inputs().getFirst().id();
            quotedOnOneLine(e.message(), name + input);
        }
    }

    /** An op reading a tensor nothing defines: the rule names the op with its tensors' names quoted. */
    @Test
    void aValidationRuleQuotesTheOpsTensors() throws Exception {
        Fusion seed = example("examples/seeds/ag_matmul_p2p.fusion", 2);
        Fusion plain = new Fusion(seed.name(), List.of(seed.inputs().get(1)), seed.ops(), seed.outputs(),
                seed.symbols(), seed.counters());
        assertTrue(refusal(plain, 2).message().startsWith("'tv2' = matmul('tv0', 'tv1') reads "),
                refusal(plain, 2).message());
        for (String name : ExportInjectionTest.hostileTexts()) {
            Fusion hostile = ExportInjectionTest.relabelled(plain, id -> name + id);
            LoweringError e = refusal(hostile, 2);
            for (int id = 0; id < 3; id++) quotedOnOneLine(e.message(), name + id);
        }
    }

    /**
     * A DIDx axis whose symbolic extent is bound to 3 on a mesh of 2 (mesh.did-extent) and one whose 3 does not split
     * over 2 devices (loop.indivisible): the rules quote the symbol's name, as the execution's messages do.
     */
    @Test
    void theMeshRulesQuoteASymbolsName() {
        for (String name : List.of("a\nb'; rm", "esc\u001b]0;title\u0007")) {
            Extent.Symbolic symbol = new Extent.Symbolic(0, name);
            TensorView unsplit = new TensorView(0, "x", DataType.FLOAT, MemoryType.GLOBAL,
                    List.of(new IterDomain(0, symbol, IterType.ITERATION, ParallelType.DIDX)), DeviceMesh.of(0, 1));
            Fusion fusion = new Fusion("f", List.of(unsplit), List.of(), List.of(unsplit), List.of(symbol),
                    new IdCounters(1, 1, 1, 0, 0));
            List<Diagnostic> ds = FusionValidator.validate(fusion, new FusionBindings(2, Map.of(name, 3L)),
                    FusionLocator.inMemory("mem"));
            assertTrue(!ds.isEmpty(), "a DIDx extent of 3 on 2 devices is refused");
            for (Diagnostic d : ds) quotedOnOneLine(d.message(), name);
        }
    }
}
