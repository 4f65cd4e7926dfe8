package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.DeviceOutOfMemory;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.export.ExportInjectionTest;
import org.junit.jupiter.api.Test;

/**
 * The execution's messages that name a tensor or a symbol (the AllToAll layout refusal, a symbol without a value,
 * an extent that does not split over a mesh, an allocation that does not fit, the reference's missing input, the
 * validation line) quote it as the rest of the product does ({@link Texts#quote}): a fusion built in memory may
 * carry any name (a file's names are identifiers), and a raw newline or escape sequence split the message or
 * drove the terminal.
 */
class ExecMessagesHostileNamesTest {
    private static final String A2A = """
            {"format": "hostir-fusion/2", "name": "a2a", "symbols": {"N": 12},
             "tensors": [{"name": "x", "dtype": "float", "mesh": "all", "axes": ["N", "D"],
                          "loop": [{"outer_split": 0, "factor": "D"}, {"parallelize": 0, "type": "DIDx"}]},
                         {"name": "y", "dtype": "float", "mesh": "all",
                          "axes": ["N", {"extent": "D", "parallel": "DIDx"}]}],
             "ops": [{"op": "set", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
            """;

    /** One line, no raw control or bidi character, the name quoted (and so shortened) where a name belongs. */
    private static void quotedOnOneLine(String message, String name) {
        String shown = TerminalText.escape(message);
        assertTrue(message.codePoints().noneMatch(TerminalText::isUnsafe), shown);
        assertTrue(message.contains(Texts.quote(name)), "quoted " + Texts.quote(name) + " in: " + shown);
        assertTrue(message.length() < 1_000, "a long name is shortened: " + message.length());
    }

    @Test
    void theAllToAllLayoutRefusalQuotesBothTensors() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(A2A, "a2a.fusion"), 2, Map.of());
        for (String name : ExportInjectionTest.hostileTexts()) {
            Fusion hostile = ExportInjectionTest.relabelled(loaded.fusion(), id -> name + id);
            try (CpuBackend backend = new CpuBackend(2, 10_000)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> Runs.lowered(hostile,
                        Runs.config(loaded, 2, Map.of()), SeedGeneration.options(Map.of()), backend, s -> { }));
                quotedOnOneLine(e.getMessage(), name + 1);
                quotedOnOneLine(e.getMessage(), name + 0);
            }
        }
    }

    @Test
    void aSymbolWithoutValueAndAnUnevenSplitQuoteTheirNames() {
        for (String name : ExportInjectionTest.hostileTexts()) {
            ScalarEnv env = new ScalarEnv(Map.of(), 0, 1);
            TensorView bySymbol = tensor(name, new Extent.Symbolic(0, name), ParallelType.SERIAL, null);
            quotedOnOneLine(assertThrows(ExecutionException.class, () -> env.localShape(bySymbol)).getMessage(), name);
            TensorView uneven = tensor(name, new Extent.Constant(3), ParallelType.DIDX, DeviceMesh.of(0, 1));
            quotedOnOneLine(assertThrows(ExecutionException.class, () -> env.localShape(uneven)).getMessage(), name);
        }
    }

    private static TensorView tensor(String label, Extent extent, ParallelType parallel, DeviceMesh mesh) {
        return new TensorView(0, label, DataType.FLOAT, MemoryType.GLOBAL,
                List.of(new IterDomain(0, extent, IterType.ITERATION, parallel)), mesh);
    }

    @Test
    void anAllocationThatDoesNotFitQuotesTheTensor() throws Exception {
        LoadedFusion loaded = OutOfMemoryFusion.load(1L << 16, 1L << 16);
        String name = "esc\u001b]0;title\u0007\nnext line";
        Fusion hostile = ExportInjectionTest.relabelled(loaded.fusion(), id -> name + id);
        try (CpuBackend backend = new CpuBackend(1, 10_000)) {
            DeviceOutOfMemory e = assertThrows(DeviceOutOfMemory.class, () -> Runs.lowered(hostile,
                    Runs.config(loaded, 1, Map.of()), SeedGeneration.options(Map.of()), backend, s -> { }));
            quotedOnOneLine(e.getMessage(), name + 4);
            assertTrue(e.getMessage().contains("TensorView T4 " + Texts.quote(name + 4)), e.getMessage());
        }
    }

    @Test
    void theReferenceAndTheValidationLineQuoteTheTensors() throws Exception {
        LoadedFusion loaded = OutOfMemoryFusion.load(8, 6);
        for (String name : ExportInjectionTest.hostileTexts()) {
            Fusion hostile = ExportInjectionTest.relabelled(loaded.fusion(), id -> name + id);
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> Reference.evaluate(hostile, Map.of()).value(hostile.outputs().getFirst()));
            quotedOnOneLine(missing.getMessage(), name + 0);
            Reference reference = Reference.evaluate(hostile, Map.of(0, DenseTensor.zeros(new long[] {8}, DataType.FLOAT),
                    1, DenseTensor.zeros(new long[] {6}, DataType.FLOAT)));
            String line = OutputValidator.validate(hostile, reference, Map.of(0, Map.of()), true).line();
            assertTrue(line.startsWith("validation: FAIL "), line);
            quotedOnOneLine(line, name + 4);
        }
    }
}
