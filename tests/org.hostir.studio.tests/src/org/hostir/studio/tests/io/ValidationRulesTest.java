package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One fusion per rule, each breaking only that rule: the diagnostic names the rule, the JSON path and a line. */
class ValidationRulesTest {

    static List<RuleCases.Case> cases() { return RuleCases.all(); }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachRuleIsReportedAloneWithItsPathAndLine(RuleCases.Case c) {
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionLoader.load(FusionReader.read(c.bytes(), "case.fusion"), c.devices(), Map.of()));
        List<Diagnostic> ds = e.diagnostics();
        String all = ds.stream().map(Diagnostic::format).collect(Collectors.joining("\n"));
        for (Diagnostic d : ds) {
            Fixtures.assertWellFormed(d, "case.fusion");
            assertEquals(c.rule().id(), d.rule(), "only " + c.rule().id() + " expected:\n" + all);
        }
        Diagnostic d = ds.getFirst();
        assertTrue(d.path().startsWith(c.path()), "path " + d.path() + " should start with " + c.path());
        assertTrue(d.line() > 0, "no line: " + d.format());
        int lines = c.text().split("\n", -1).length;
        assertTrue(d.line() <= lines, "line " + d.line() + " beyond the file's " + lines + " lines");
    }

    @Test
    void everyRuleHasACase() {
        Set<Rule> covered = EnumSet.noneOf(Rule.class);
        cases().forEach(c -> covered.add(c.rule()));
        covered.addAll(RuleCases.TESTED_ELSEWHERE);
        assertEquals(EnumSet.allOf(Rule.class), covered);
        assertEquals(cases().size(), cases().stream().map(RuleCases.Case::rule).distinct().count(),
                "one case per rule");
    }

    @Test
    void diagnosticLinesPointAtTheFault() throws Exception {
        // the case of the brief: the unknown parallel type is on line 8 of this text
        String text = """
                {
                  "format": "hostir-fusion/1",
                  "name": "x",
                  "tensors": [
                    {"name": "a", "dtype": "float", "axes": ["M"]},
                    {"name": "b", "dtype": "float",
                     "axes": [
                        {"extent": "M", "parallel": "DIDz"}
                     ]}
                  ],
                  "ops": [{"op": "set", "inputs": ["a"], "output": "b"}],
                  "inputs": ["a"], "outputs": ["b"]
                }
                """;
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionReader.read(text, "examples/x.fusion"));
        assertEquals(List.of("error: examples/x.fusion:8: $.tensors[1].axes[0].parallel: unknown parallel type"
                        + " 'DIDz' (expected Serial, DIDx, DIDy, Stream) [schema.enum]"),
                e.diagnostics().stream().map(Diagnostic::format).toList());
    }

    @Test
    void validationDiagnosticsPointAtTheOpOrTensorLine() {
        String text = Fixtures.text(Fixtures.base(d -> Fixtures.tensor(d, "b").addProperty("dtype", "half")));
        List<Diagnostic> ds = Fixtures.failures(text, "f.fusion", 2);
        int opLine = lineOf(text, "\"op\": \"matmul\"") - 1; // the op object opens one line above its first key
        assertEquals(opLine, ds.getFirst().line(), ds.getFirst().format());
        assertTrue(ds.getFirst().message().startsWith("'c' = matmul('a', 'b'): dtypes differ"), ds.getFirst().message());
    }

    @Test
    void fusionWithoutOutputsIsReported() {
        // the reader refuses an empty outputs list; a fusion built in memory can still lack outputs
        IrBuilder b = new IrBuilder();
        TensorView t = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.symbol("M")));
        Fusion f = b.fusion("empty", List.of(t), List.of(), List.of());
        List<Diagnostic> ds = FusionValidator.validate(f, FusionBindings.devices(1), FusionLocator.inMemory("mem"));
        assertEquals(List.of(Rule.GRAPH_NO_OUTPUTS.id()), ds.stream().map(Diagnostic::rule).toList());
        assertEquals("error: mem: $.outputs: the fusion has no outputs [graph.no-outputs]", ds.getFirst().format());
    }

    @Test
    void blankFusionReadsButDoesNotLoad() throws Exception {
        // File > New's empty template (issue 35): the editor draws it without an error; running it is still refused
        String blank = """
                {"format": "hostir-fusion/1", "name": "fusion", "tensors": [], "ops": [], "inputs": [], "outputs": []}
                """;
        var doc = FusionReader.read(blank, "blank.fusion").document();
        assertTrue(doc.tensors().isEmpty() && doc.ops().isEmpty() && doc.outputs().isEmpty());
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionLoader.load(blank, "blank.fusion", FusionBindings.DEFAULT_DEVICES));
        assertEquals(List.of(Rule.GRAPH_NO_OUTPUTS.id()), e.diagnostics().stream().map(Diagnostic::rule).toList());
        // with a tensor, an empty outputs list is still the reader's range error
        String noOutput = blank.replace("\"tensors\": []", "\"tensors\": [{\"name\": \"a\", \"dtype\": \"float\", \"axes\": [\"M\"]}]")
                .replace("\"inputs\": []", "\"inputs\": [\"a\"]");
        FusionFileException f = assertThrows(FusionFileException.class, () -> FusionReader.read(noOutput, "x.fusion"));
        assertEquals(List.of(Rule.SCHEMA_RANGE.id()), f.diagnostics().stream().map(Diagnostic::rule).toList());
    }

    @Test
    void missingFileIsADiagnostic() {
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionLoader.load(Path.of("no/such/file.fusion"), 2));
        assertEquals(Rule.FILE_READ.id(), e.diagnostics().getFirst().rule());
        assertEquals("error: no/such/file.fusion: $: no such file [file.read]", e.diagnostics().getFirst().format());
    }

    @Test
    void inMemoryFusionsAreNamedByIrNames() {
        IrBuilder b = new IrBuilder();
        var m = b.symbol("M");
        TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(m));
        TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null,
                b.iterDomain(m, org.hostir.studio.ir.IterType.REDUCTION, org.hostir.studio.ir.ParallelType.STREAM));
        Fusion f = b.fusion("f", List.of(in), List.of(new org.hostir.studio.ir.FusionOp.Reduction(
                org.hostir.studio.ir.ReductionOpType.SUM, out, in, List.of(0))), List.of(out));
        List<Diagnostic> ds = FusionValidator.validate(f, FusionBindings.devices(1), FusionLocator.inMemory("mem"));
        assertEquals(List.of("error: mem: T1.axes[0]: axis 0 of T1 is a reduction axis and cannot be"
                + " Stream-parallel [stream.reduction]"), ds.stream().map(Diagnostic::format).toList());
    }

    private static int lineOf(String text, String needle) {
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) if (lines[i].contains(needle)) return i + 1;
        throw new AssertionError("no " + needle);
    }
}
