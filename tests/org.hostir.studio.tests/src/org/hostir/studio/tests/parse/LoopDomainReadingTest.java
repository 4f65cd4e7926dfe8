package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: the logical axes the dump reader rebuilds from a printed loop domain (nvFuser prints the loop domain
 * only, TensorDomain::toString, csrc/ir/internal_base_nodes.cpp:1512-1543 at 81c4b22fd), and the print read back
 * unchanged.
 */
class LoopDomainReadingTest {

    /** The input's logical axes, each as {@code <parallel type> <extent>}, and its print read back. */
    private static List<String> logical(String tensor) {
        String text = "%HostIrContainer { (" + tensor + ") -> () :\n} // %HostIrContainer\n";
        var program = HostIrDumpReader.read(text).program();
        TensorView t = program.inputs().getFirst();
        assertEquals(tensor, HostIrPrinter.print(program, NvFuserGeneration.V2026_04).lines().findFirst().orElseThrow()
                .replaceFirst("^%HostIrContainer \\{ \\((.*)\\) -> \\(\\) :$", "$1"));
        return t.axes().stream().map(LoopDomainReadingTest::describe).toList();
    }

    private static String describe(IterDomain a) {
        return a.iterType().letter() + a.parallelType() + " " + a.extent();
    }

    @Test
    void aNumberSplitByTheDevicesPrintsFoldedAndReadsAsOneAxis() {
        // T0 of test_overlap.py's row_parallel_linear_forward: [t, 4h] split by s (Stream) and by d (DIDx)
        assertEquals(List.of(describe("i", "STREAM", "Symbolic[id=0, name=i0]"), describe("i", "DIDX",
                        "Constant[value=8]")),
                logical("T0_g___bfloat[istreamIdx7{3}, ideviceIdx.x9{2}, iS8{( ceilDiv(i0, 3) )}, iS10{4}] "
                        + "(DeviceMesh{0 1})"));
        // the weight: the sharded 4h after the unsharded h, its split's parts numbered after h's id
        assertEquals(List.of(describe("i", "SERIAL", "Constant[value=2]"), describe("i", "DIDX",
                        "Constant[value=8]")),
                logical("T1_g___bfloat[ideviceIdx.x11{2}, iS2{2}, iS12{4}] (DeviceMesh{0 1})"));
        // the output's contracted axis: a reduction split the same way
        assertEquals(List.of(describe("i", "STREAM", "Symbolic[id=0, name=i0]"), describe("i", "SERIAL",
                        "Constant[value=2]"), describe("r", "DIDX", "Constant[value=8]")),
                logical("T2_g___bfloat[istreamIdx13{3}, rdeviceIdx.x15{2}, iS14{( ceilDiv(i0, 3) )}, iS5{2}, "
                        + "rS16{4}] (DeviceMesh{0 1})"));
    }

    @Test
    void anRFactoredPartialKeepsItsDeviceAxisWhereItsIdPlacesIt() {
        // row_parallel_linear_forward's partial sum, logical [t, h, d] (d the rFactor product replacing the contracted
        // axis in place, csrc/transform_rfactor.cpp:85-91): the parallel ids printed first, the Serial ones in
        // logical order (reorderParallelizedToFront, csrc/multidevice/utils.cpp:252-275)
        assertEquals(List.of(describe("i", "STREAM", "Symbolic[id=0, name=i0]"), describe("i", "SERIAL",
                        "Constant[value=2]"), describe("i", "DIDX", "Constant[value=2]")),
                logical("T3_g___bfloat[istreamIdx20{3}, ideviceIdx.x19{2}, iS21{( ceilDiv(i0, 3) )}, iS18{2}] "
                        + "(DeviceMesh{0 1})"));
    }

    @Test
    void aLogicalAxisShardedAsTheSeedsPrintItStaysOneAxis() {
        // seed scatter_two_stages: the logical [4, 3, 3] with DIDx on axis 0, ids in order: not a split of 12
        assertEquals(List.of(describe("i", "DIDX", "Constant[value=4]"), describe("i", "SERIAL", "Constant[value=3]"),
                        describe("i", "SERIAL", "Constant[value=3]")),
                logical("T5_g_float[ideviceIdx.x17{4}, iS18{3}, iS19{3}] (DeviceMesh{0 1 2 3})"));
    }

    @Test
    void aSwizzledStreamAxisIsTheOuterPartOfItsSplit() {
        // column_parallel_linear_collective_permute_2026: t split by d, its outer part swizzled (16 -> 18) and put
        // on Stream; n split by d on DIDx (19, 20). 17's outer part is 18, not 19 printed just before it.
        assertEquals(List.of(describe("i", "STREAM", "Symbolic[id=0, name=i0]"), describe("i", "DIDX",
                        "Symbolic[id=3, name=i3]"), describe("r", "SERIAL", "Symbolic[id=2, name=i2]")),
                logical("T3_g_float[istreamIdx18{4}, ideviceIdx.x19{4}, iS17{( ceilDiv(i0, 4) )}, "
                        + "iS20{( ceilDiv(i3, 4) )}, rS8{i2}] (DeviceMesh{0 1 2 3})"));
    }

    private static String describe(String letter, String parallel, String extent) {
        return letter + parallel + " " + extent;
    }
}
