package org.hostir.studio.tests.io;

import static org.hostir.studio.tests.io.Fixtures.single;
import static org.hostir.studio.tests.io.Fixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.FusionConverter;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.rules.FusionBindings;
import org.junit.jupiter.api.Test;

/** Converting documents to IR: deterministic numbering, labels, meshes, and each op kind. */
class FusionConverterTest {

    private static LoadedFusion load(String tensors, String ops, String inputs, String outputs) throws Exception {
        return FusionLoader.load(text(single(tensors, ops, inputs, outputs)), "c.fusion", 2);
    }

    @Test
    void numbersTensorsAndAxesInFileOrderAndSymbolsFromTheInputs() throws Exception {
        // the ops are listed out of tensor order: tensors and axes are numbered by the tensors list; symbols as
        // nvFuser's builder creates them, one per axis of the input u (i1, between them, is nvFuser's zeroVal),
        // and the ops' outputs reuse them (the permute swaps them, the add keeps them)
        LoadedFusion f = load("[{'name': 'w', 'dtype': 'float', 'axes': ['N', 'M']},"
                        + " {'name': 'v', 'dtype': 'float', 'axes': ['N', 'M']},"
                        + " {'name': 'u', 'dtype': 'float', 'axes': ['M', 'N']}]",
                "[{'op': 'set', 'inputs': ['u'], 'output': 'v', 'permute': [1, 0]},"
                        + " {'op': 'add', 'inputs': ['v', 'v'], 'output': 'w'}]", "['u']", "['w']");
        assertEquals(List.of("T0_g_float[iS0{i2}, iS1{i0}]", "T1_g_float[iS2{i2}, iS3{i0}]",
                "T2_g_float[iS4{i0}, iS5{i2}]"), f.tensors().stream().map(IrText::tensor).toList());
        assertEquals(List.of("w", "v", "u"), f.tensors().stream().map(TensorView::label).toList());
        assertEquals(List.of("i0 = M", "i2 = N"), f.fusion().legend());
        assertEquals(List.of(new Extent.Symbolic(0, "M"), new Extent.Symbolic(2, "N")), f.fusion().symbols());
        assertEquals(List.of("T2"), f.fusion().inputs().stream().map(TensorView::name).toList());
        assertEquals(List.of("T0"), f.fusion().outputs().stream().map(TensorView::name).toList());
        // converting again gives the same IR
        assertEquals(f.fusion(), FusionLoader.load(text(single("[{'name': 'w', 'dtype': 'float', 'axes': ['N', 'M']},"
                        + " {'name': 'v', 'dtype': 'float', 'axes': ['N', 'M']},"
                        + " {'name': 'u', 'dtype': 'float', 'axes': ['M', 'N']}]",
                "[{'op': 'set', 'inputs': ['u'], 'output': 'v', 'permute': [1, 0]},"
                        + " {'op': 'add', 'inputs': ['v', 'v'], 'output': 'w'}]", "['u']", "['w']")), "c.fusion", 2)
                .fusion());
    }

    /**
     * Each op's output reuses its inputs' symbols as nvFuser's ops build outputs (ops::newOutputIterDomain: broadcast
     * axes skipped, the first constant, else the first symbol): the add takes M from y where x has a broadcast
     * axis, and N from x; the sum keeps M and reduces N; linear's N is the weight's (not the bias's), its K the
     * input's; where the file names another extent whose value is unknown (P), the axis keeps a symbol of its own.
     * x, with a constant extent, is built as nvFuser's {@code makeConcreteTensor({1, -1})}: the fusion's oneVal
     * takes number 0, N is {@code i1}, zeroVal {@code 2}; y, all symbolic, starts at {@code i3}.
     */
    @Test
    void opOutputsReuseTheirInputsSymbols() throws Exception {
        LoadedFusion f = FusionLoader.load(text(single(
                "[{'name': 'x', 'dtype': 'float', 'axes': [{'extent': 1, 'iter': 'broadcast'}, 'N']},"
                        + " {'name': 'y', 'dtype': 'float', 'axes': ['M', 'N']},"
                        + " {'name': 'w', 'dtype': 'float', 'axes': ['H', 'N']},"
                        + " {'name': 'bias', 'dtype': 'float', 'axes': ['H']},"
                        + " {'name': 'a', 'dtype': 'float', 'axes': ['M', 'N']},"
                        + " {'name': 's', 'dtype': 'float', 'axes': ['M', {'extent': 'N', 'iter': 'reduction'}]},"
                        + " {'name': 'l', 'dtype': 'float', 'axes': ['M', 'H', {'extent': 'N', 'iter': 'reduction'}]},"
                        + " {'name': 'c', 'dtype': 'float', 'axes': ['P', 'N']}]",
                "[{'op': 'add', 'inputs': ['x', 'y'], 'output': 'a'},"
                        + " {'op': 'sum', 'inputs': ['a'], 'output': 's', 'axes': [1]},"
                        + " {'op': 'linear', 'inputs': ['a', 'w', 'bias'], 'output': 'l'},"
                        + " {'op': 'set', 'inputs': ['a'], 'output': 'c'}]",
                "['x', 'y', 'w', 'bias']", "['s', 'l', 'c']")), "c.fusion", 2);
        assertEquals(List.of("T0_g_float[bS0{1}, iS1{i1}]", "T1_g_float[iS2{i3}, iS3{i4}]",
                "T2_g_float[iS4{i5}, iS5{i6}]", "T3_g_float[iS6{i7}]", "T4_g_float[iS7{i3}, iS8{i1}]",
                "T5_g_float[iS9{i3}, rS10{i1}]", "T6_g_float[iS11{i3}, iS12{i5}, rS13{i1}]",
                "T7_g_float[iS14{i8}, iS15{i1}]"), f.tensors().stream().map(IrText::tensor).toList());
        assertEquals(List.of("i1 = N", "i3 = M", "i4 = N", "i5 = H", "i6 = N", "i7 = H", "i8 = P"),
                f.fusion().legend());
    }

    @Test
    void convertsEachOpKind() throws Exception {
        LoadedFusion f = load("[{'name': 'x', 'dtype': 'half', 'axes': ['M', 'K']},"
                        + " {'name': 'w', 'dtype': 'half', 'axes': ['N', 'K']},"
                        + " {'name': 'y', 'dtype': 'half', 'memory': 'local', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]},"
                        + " {'name': 'z', 'dtype': 'half', 'axes': ['M', 'N']},"
                        + " {'name': 'm', 'dtype': 'half', 'axes': [{'extent': 'M', 'iter': 'reduction'}, 'N']},"
                        + " {'name': 'b', 'dtype': 'half', 'axes': [{'iter': 'broadcast'}, 'N']},"
                        + " {'name': 'q', 'dtype': 'half', 'axes': ['M', 'N']},"
                        + " {'name': 'wt', 'dtype': 'half', 'axes': ['K', 'N']},"
                        + " {'name': 'r', 'dtype': 'half', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}]",
                "[{'op': 'linear', 'inputs': ['x', 'w'], 'output': 'y'},"
                        + " {'op': 'sub', 'inputs': ['y', 'y'], 'output': 'z'},"
                        + " {'op': 'max', 'inputs': ['z'], 'output': 'm', 'axes': [0]},"
                        + " {'op': 'broadcast', 'inputs': ['m'], 'output': 'b', 'flags': [true, false]},"
                        + " {'op': 'mul', 'inputs': ['z', 'b'], 'output': 'q'},"
                        + " {'op': 'set', 'inputs': ['w'], 'output': 'wt', 'permute': [1, 0]},"
                        + " {'op': 'matmul', 'inputs': ['x', 'wt'], 'output': 'r'}]",
                "['x', 'w']", "['q', 'r']");
        List<FusionOp> ops = f.fusion().ops();
        FusionOp.Linear linear = (FusionOp.Linear) ops.get(0);
        assertNull(linear.bias());
        assertEquals(MemoryType.LOCAL, linear.output().memoryType());
        assertEquals(BinaryOpType.SUB, ((FusionOp.Binary) ops.get(1)).op());
        FusionOp.Reduction max = (FusionOp.Reduction) ops.get(2);
        assertEquals(ReductionOpType.MAX, max.op());
        assertEquals(List.of(0), max.axes());
        assertEquals(List.of(true, false), ((FusionOp.Broadcast) ops.get(3)).flags());
        assertEquals(BinaryOpType.MUL, ((FusionOp.Binary) ops.get(4)).op());
        FusionOp.Set permute = (FusionOp.Set) ops.get(5);
        assertTrue(permute.isPermute());
        assertEquals(List.of(1, 0), permute.permutation());
        assertTrue(ops.get(6) instanceof FusionOp.Matmul m && m.b().label().equals("wt"));
        assertEquals(List.of("q", "r"), f.fusion().outputs().stream().map(TensorView::label).toList());
    }

    @Test
    void allMeshesFollowTheDeviceCountAndExplicitOnesStay() throws Exception {
        String t = text(Fixtures.base(d -> Fixtures.tensor(d, "b").add("mesh", Fixtures.j("[2, 0, 1, 3]"))));
        LoadedFusion f = FusionLoader.load(t, "m.fusion", 4);
        assertEquals(List.of(0, 1, 2, 3), f.tensors().get(0).mesh().deviceIds());
        assertEquals(List.of(2, 0, 1, 3), f.tensors().get(1).mesh().deviceIds());
        assertEquals(4L, f.bindings().value("D").orElseThrow());
        assertEquals(6L, f.bindings().value("N").orElseThrow());
    }

    @Test
    void setOverridesDefaultsAndDIsTheDeviceCount() throws Exception {
        ParsedFusion p = FusionReader.read(text(Fixtures.base()), "b.fusion");
        LoadedFusion f = FusionLoader.load(p, 2, Map.of("N", 10L, "D", 7L));
        assertEquals(10L, f.bindings().value("N").orElseThrow());
        assertEquals(8L, f.bindings().value("M").orElseThrow());
        assertEquals(2L, f.bindings().value("D").orElseThrow());
        assertFalse(f.bindings().value("Q").isPresent());
    }

    @Test
    void unusedTensorsAreConvertedButNotInTheFusion() throws Exception {
        LoadedFusion f = load("[{'name': 'p', 'dtype': 'float', 'axes': ['M']}, {'name': 'lonely', 'dtype': 'float', 'axes': ['N']},"
                + " {'name': 'q', 'dtype': 'float', 'axes': ['M']}]",
                "[{'op': 'set', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']");
        assertEquals(3, f.tensors().size());
        assertEquals("T1", f.tensors().get(1).name());
        assertEquals(List.of("T0", "T2"), f.fusion().tensors().stream().map(TensorView::name).toList());
    }

    @Test
    void inMemoryDocumentsWithTheWrongArityAreDiagnosedNotThrown() throws Exception {
        FusionDocument doc = FusionReader.read(text(Fixtures.base()), "b.fusion").document();
        FusionDocument bad = new FusionDocument(doc.name(), null, doc.symbols(), doc.tensors(),
                List.of(OpSpec.of(OpKind.ADD, "c", "a")), doc.inputs(), doc.outputs(), null);
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionConverter.convert(ParsedFusion.inMemory("mem", bad), FusionBindings.devices(2)));
        assertEquals("error: mem: $.ops[0].inputs: add cannot take 1 inputs [schema.arity]",
                e.diagnostics().getFirst().format());
    }
}
