package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * Unary ops, casts and the new dtypes print as nvFuser's UnaryOp::toString does (csrc/ir/internal_nodes.cpp:
 * the inline {@code -}, the {@code f} suffix on float outputs, the cast function of the pair; data_type2string
 * for tensor names), and the dump reader reads that text back to the same program.
 */
class OpsDumpTest {
    private static String squeeze(String s) { return s.replaceAll("\\s+", ""); }

    private static String lowered(String example, int devices) throws Exception {
        Path file = RepoPaths.repo().resolve("examples/ops/" + example + ".fusion");
        var fusion = FusionLoader.load(file, example, devices, Map.of()).fusion();
        HostIrContainer program = Pipeline.standard().lower(fusion,
                new LoweringContext(0, devices, SeedGeneration.DEFAULTS));
        return HostIrPrinter.print(program);
    }

    @Test
    void unaryOpsPrintAsNvFuserDoes() throws Exception {
        String dump = lowered("unary_pointwise_dp", 2);
        for (String call : List.of("= -T0_g_float", "= abs(T0", "= expf(T0", "= logf(T", "= sqrtf(T", "= rsqrtf(T",
                "= tanhf(T0", "= erff(T0", "= sigmoid(T0", "= relu(T0", "= gelu(T0", "= silu(T0")) {
            assertTrue(dump.contains(call), call + " in\n" + dump);
        }
        // the suffix is for float outputs only: exp of a bfloat16 tensor is plain exp
        IrBuilder b = new IrBuilder();
        TensorView x = b.tensor(DataType.BFLOAT16, MemoryType.GLOBAL, null, b.iter(b.symbol("M")));
        TensorView y = b.tensor(DataType.BFLOAT16, MemoryType.GLOBAL, null, b.iter(b.symbol("M")));
        String line = HostIrPrinter.print(new HostOp(0, new FusionOp.Unary(UnaryOpType.EXP, y, x)), "");
        assertTrue(line.contains("= exp(T0_g___bfloat["), line);
    }

    @Test
    void castsAndFp8PrintTheirCastFunctionsAndDtypes() throws Exception {
        String dump = lowered("fp8_linear_tp", 2);
        assertTrue(dump.contains("T2_g___e4m3[ideviceIdx.x"), dump);
        assertTrue(dump.contains("= __float2e4m3(T0_g_float["), dump);
        assertTrue(dump.contains("T4_g___bfloat["), dump);
        assertTrue(dump.contains("= __bfloat2float(T5_g___bfloat["), dump);
        String other = lowered("dtypes_int32_double_bool", 2);
        assertTrue(other.contains("T0_g_int[ideviceIdx.x"), other);
        assertTrue(other.contains("= __to_double(T2_g_bool["), other);
        assertTrue(other.contains("_g_double["), other);
    }

    /** TernaryOp's operands each on a line led by ", "; SqueezeOp like BroadcastOp; ExpandOp on one line. */
    @Test
    void whereSqueezeAndExpandPrintAsNvFuserDoes() throws Exception {
        String dump = lowered("where_squeeze_expand_dp", 2);
        assertTrue(dump.contains("\n     = where(T1_g_bool[ideviceIdx.x3{i4}, iS4{i5}, iS5{i6}] (DeviceMesh{0 1})\n"
                + "    , T0_g_float[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}] (DeviceMesh{0 1})\n"
                + "    , T3_g_float["), dump);
        // the axis expanded from b's broadcast is nvFuser's expanded broadcast, IterDomain::toString's "{1 ex N}"
        assertTrue(dump.contains("  T5_g_float[ideviceIdx.x15{2}, bS16{1 ex i10}, iS17{i9}] (DeviceMesh{0 1})"
                + " = expand( T2_g_float[ideviceIdx.x6{2}, bS7{1}, iS8{i9}] (DeviceMesh{0 1}) )\n"), dump);
        assertTrue(dump.contains("     + T5_g_float[ideviceIdx.x15{2}, bS16{1 ex i10}, iS17{i9}]"), dump);
        assertTrue(dump.contains("\n     = squeeze( T2_g_float[ideviceIdx.x6{2}, bS7{1}, iS8{i9}] (DeviceMesh{0 1}),"
                + " flags = {false, true, false} )\n"), dump);
        ParsedDump parsed = HostIrDumpReader.read(dump);
        long kinds = parsed.program().allNodes().stream().filter(n -> n instanceof HostOp h
                && (h.op() instanceof FusionOp.Where || h.op() instanceof FusionOp.Squeeze
                        || h.op() instanceof FusionOp.Expand)).count();
        assertEquals(3, kinds, parsed.reprint());
        FusionOp.Expand expand = parsed.program().allNodes().stream().filter(n -> n instanceof HostOp h
                && h.op() instanceof FusionOp.Expand).map(n -> (FusionOp.Expand) ((HostOp) n).op()).findFirst()
                .orElseThrow();
        // read back as the IR carries it: an axis of the expanded extent, marked expanded
        IterDomain expanded = expand.output().axis(1);
        assertTrue(expanded.expanded(), expanded.toString());
        assertEquals("i10", IrText.scalar(expanded.extent()));
        assertTrue(!expand.output().axis(2).expanded() && !expand.input().axis(1).expanded());
    }

    /** The expanded extent prints after " ex " and reads back to the same iter domain, symbol or constant. */
    @Test
    void anExpandedBroadcastPrintsAndReadsBackAsNvFusersIterDomain() throws Exception {
        IrBuilder b = new IrBuilder();
        IterDomain m = b.iter(b.symbol("M")).withExpanded(true);
        IterDomain six = b.iter(new Extent.Constant(6)).withExpanded(true);
        assertEquals("bS0{1 ex i0}", IrText.iterDomain(m));
        assertEquals("bS1{1 ex 6}", IrText.iterDomain(six));
        TensorView x = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.broadcast(), b.broadcast());
        TensorView y = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, m, six);
        String program = HostIrPrinter.print(new HostIrContainer(List.of(x), List.of(y),
                List.of(new HostOp(0, new FusionOp.Expand(y, x))), List.of(), b.symbols(), b.counters(), Map.of()));
        assertTrue(program.contains("T1_g_float[bS0{1 ex i0}, bS1{1 ex 6}] = expand( T0_g_float[bS2{1}, bS3{1}] )"),
                program);
        ParsedDump parsed = HostIrDumpReader.read(program);
        assertEquals(List.of(), parsed.opaqueNodes());
        assertEquals(program, parsed.reprint());
        List<IterDomain> read = parsed.program().outputs().getFirst().axes();
        assertEquals(List.of(m.id(), six.id()), read.stream().map(IterDomain::id).toList());
        assertTrue(read.stream().allMatch(IterDomain::expanded), read.toString());
        assertEquals(new Extent.Constant(6), read.get(1).extent());
        assertEquals(0, ((Extent.Symbolic) read.get(0).extent()).id()); // i0, the dump's name for M
        // a plain broadcast stays one: bS2{1}
        assertTrue(!parsed.program().inputs().getFirst().axis(0).expanded());
    }

    /** ReshapeOp::toString: one line; the sharded axis passes through, so no communication is lowered. */
    @Test
    void reshapePrintsOnOneLineAndKeepsTheShardedAxis() throws Exception {
        String dump = lowered("reshape_dp_heads", 2);
        assertTrue(dump.contains("  T1_g_float[ideviceIdx.x3{2}, iS4{i4}, iS5{2}, iS6{3}] (DeviceMesh{0 1}) = reshape("
                + " T0_g_float[ideviceIdx.x0{2}, iS1{i1}, iS2{6}] (DeviceMesh{0 1}) )\n"), dump);
        assertTrue(!dump.contains("Communication"), dump);
        long reshapes = HostIrDumpReader.read(dump).program().allNodes().stream()
                .filter(n -> n instanceof HostOp h && h.op() instanceof FusionOp.Reshape).count();
        assertEquals(2, reshapes);
    }

    /** min and prod over the sharded axis lower to collectives with NCCL's min and product. */
    @Test
    void minAndProdLowerToCollectivesWithTheirReduceOp() throws Exception {
        for (String example : List.of("allreduce_min", "reduce_scatter_prod")) {
            Path file = RepoPaths.repo().resolve("examples/ops/" + example + ".fusion");
            var fusion = FusionLoader.load(file, example, 4, Map.of()).fusion();
            for (int rank = 0; rank < 4; rank++) {
                List<Communication> cs = Pipeline.standard().lower(fusion,
                        new LoweringContext(rank, 4, SeedGeneration.DEFAULTS)).allNodes().stream()
                        .filter(n -> n instanceof Communication).map(n -> (Communication) n).toList();
                assertEquals(1, cs.size(), example);
                boolean min = example.equals("allreduce_min");
                assertEquals(min ? CommunicationType.ALLREDUCE : CommunicationType.REDUCE_SCATTER, cs.get(0).type());
                assertEquals(min ? ReductionOpType.MIN : ReductionOpType.PROD, cs.get(0).reduction());
            }
        }
    }

    /** A broadcast operand of add under a DIDx output is replicated: no Scatter (it used to be one, which failed). */
    @Test
    void aBroadcastOperandOfAShardedAddIsNotResharded() throws Exception {
        assertTrue(!lowered("bias_broadcast_dp", 2).contains("Communication"));
    }

    @Test
    void theDumpReaderReadsTheOpsBack() throws Exception {
        for (String example : List.of("unary_pointwise_dp", "fp8_linear_tp", "dtypes_int32_double_bool",
                "mlp_tp_gelu", "allreduce_min", "reduce_scatter_prod", "where_squeeze_expand_dp",
                "reshape_dp_heads")) {
            String dump = lowered(example, 2);
            ParsedDump parsed = HostIrDumpReader.read(dump);
            assertEquals(List.of(), parsed.opaqueNodes(), example);
            assertEquals(squeeze(dump), squeeze(parsed.reprint()), example);
            long unary = parsed.program().allNodes().stream()
                    .filter(n -> n instanceof HostOp h && h.op() instanceof FusionOp.Unary).count();
            long expected = switch (example) {
                case "unary_pointwise_dp" -> 12;
                case "fp8_linear_tp" -> 3;
                case "dtypes_int32_double_bool", "mlp_tp_gelu", "reduce_scatter_prod", "where_squeeze_expand_dp",
                     "reshape_dp_heads" -> 1;
                default -> 0;
            };
            assertEquals(expected, unary, example + " unary host ops read back");
        }
    }

    /**
     * nvFuser has no gelu op: {@code gelu(x)} builds {@code x * (0.5 * (1 + erf(x * M_SQRT1_2)))} (csrc/ops/composite.cpp),
     * so a real dump has that expansion, printed by BinaryOp::toString and UnaryOp::toString with the scalars as
     * Val::toString writes constants ({@code double(0.70710678118654757)}, max_digits10). The reader keeps the three
     * statements with a scalar operand as text (this IR's binary ops take two tensors), with a warning each naming
     * the line and the reason; {@code erff} and the tensor-by-tensor mul read as ops, and the whole program
     * reprints as it was read. docs/nvfuser-interop.md lists this.
     */
    @Test
    void nvFusersGeluExpansionKeepsItsScalarStatementsAsText() throws Exception {
        String dump = """
                %HostIrContainer { (T0_g_float[iS0{i0}, iS1{i2}]) -> (T5_g_float[iS10{i0}, iS11{i2}]) :
                  T1_g_float[iS2{i0}, iS3{i2}]
                     = T0_g_float[iS0{i0}, iS1{i2}]
                     * double(0.70710678118654757);
                  T2_g_float[iS4{i0}, iS5{i2}]
                     = erff(T1_g_float[iS2{i0}, iS3{i2}]);
                  T3_g_float[iS6{i0}, iS7{i2}]
                     = double(1)
                     + T2_g_float[iS4{i0}, iS5{i2}];
                  T4_g_float[iS8{i0}, iS9{i2}]
                     = double(0.5)
                     * T3_g_float[iS6{i0}, iS7{i2}];
                  T5_g_float[iS10{i0}, iS11{i2}]
                     = T0_g_float[iS0{i0}, iS1{i2}]
                     * T4_g_float[iS8{i0}, iS9{i2}];
                } // %HostIrContainer
                """;
        ParsedDump parsed = HostIrDumpReader.read(dump);
        assertEquals(List.of(2, 7, 10), parsed.warnings().stream().map(w -> w.line()).toList(),
                parsed.warnings().toString());
        assertEquals(3, parsed.opaqueNodes().size());
        assertTrue(parsed.warnings().get(1).message().contains("unknown op 'double'"), parsed.warnings().toString());
        List<FusionOp> ops = parsed.program().allNodes().stream().filter(n -> n instanceof HostOp)
                .map(n -> ((HostOp) n).op()).toList();
        assertEquals(2, ops.size(), ops.toString());
        FusionOp.Unary erf = (FusionOp.Unary) ops.getFirst();
        assertEquals(UnaryOpType.ERF, erf.op());
        assertEquals(List.of(2, 1), List.of(erf.output().id(), erf.input().id()));
        FusionOp.Binary mul = (FusionOp.Binary) ops.get(1);
        assertEquals(List.of(5, 0, 4), List.of(mul.output().id(), mul.lhs().id(), mul.rhs().id()));
        assertEquals(squeeze(dump), squeeze(parsed.reprint()));
    }
}
