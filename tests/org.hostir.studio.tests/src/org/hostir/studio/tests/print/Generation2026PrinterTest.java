package org.hostir.studio.tests.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.NotExecutable;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.api.Test;

/**
 * Each node in nvFuser main's spelling (81c4b22fd), line for line as its toString prints it
 * (csrc/host_ir/ir.cpp, csrc/multidevice/communication.cpp, csrc/kernel_ir.cpp:548, csrc/type.cpp:781), and the
 * same nodes unchanged under 2025-06.
 */
class Generation2026PrinterTest {
    private static final NvFuserGeneration NEW = NvFuserGeneration.V2026_04;
    private static final NvFuserGeneration OLD = NvFuserGeneration.V2025_06;

    private final IrBuilder ir = new IrBuilder();
    private final HostIrBuilder h = new HostIrBuilder(ir);
    private final Extent.Symbolic i0 = ir.symbol("i0");
    private final DeviceMesh mesh = new DeviceMesh(List.of(0, 1));
    private final TensorView t0 = ir.tensor(DataType.BFLOAT16, MemoryType.GLOBAL, mesh,
            ir.iter(new Extent.Constant(3), ParallelType.STREAM), ir.iter(i0));
    private final TensorView t1 = ir.tensor(DataType.BFLOAT16, MemoryType.LOCAL, mesh,
            ir.iter(new Extent.Constant(3), ParallelType.STREAM), ir.iter(i0));
    private final NamedScalar index = new NamedScalar("i535");

    private static String print(HostNode n, NvFuserGeneration g) { return HostIrPrinter.print(n, "", g); }

    @Test
    void aStreamAxisPrintsStreamIdxLowerCase() {
        assertEquals("T0_g___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1}) = ALLOCATE(buffer="
                + "T0_g___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1}), mem_type=global, size=( 3 * i0 ),"
                + " zero_init=false, resets_to_zero=false)\n", print(h.allocate(t0), NEW));
        assertTrue(print(h.allocate(t0), OLD).startsWith("T0_g___bfloat[iStreamIdx0{3}, iS1{i0}]"));
    }

    @Test
    void hostIrAllocatePrintsOnlyTheMemoryTypeAndZeroInit() {
        assertEquals("T0_g___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1}) = ALLOCATE(mem_type=global,"
                + " zero_init=false)\n", print(h.allocateHostIr(t0), NEW));
        TensorView sym = t0.withMemoryType(MemoryType.SYMMETRIC);
        assertEquals("T0_sym___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1}) = ALLOCATE(mem_type=symmetric,"
                + " zero_init=false)\n", print(h.allocateHostIr(sym), NEW));
    }

    @Test
    void streamNodesPrintAsCallsIn2026AndAsWordsIn2025() {
        Stream pointer = new Stream.Pointer("0x174e5c80");
        Stream indexed = new Stream.Indexed(index);
        assertEquals("Stream 0x174e5c80 = GetCurrentStream()\n", print(h.getCurrentStream(pointer), NEW));
        assertEquals("SetCurrentStream(Stream i535)\n", print(h.setCurrentStream(indexed), NEW));
        assertEquals("Synchronize(Stream 0x174e5c80)\n", print(h.synchronize(pointer), NEW));
        assertEquals("GetCurrentStream into Stream 0\n", print(h.getCurrentStream(Stream.USER), OLD));
        assertEquals("SetCurrentStream to Stream i535\n", print(h.setCurrentStream(indexed), OLD));
        assertEquals("Synchronize Stream 0\n", print(h.synchronize(Stream.USER), OLD));
        assertThrows(IllegalArgumentException.class, () -> new Stream.Pointer("174e5c80"));
    }

    @Test
    void hostLoopsPrintFromTo() {
        HostNode loop = h.forRange(index, Scalar.constant(0), Scalar.constant(3),
                List.of(h.shardByStream(t1, t0, index)));
        String shard = "T1_l___bfloat[istreamIdx2{3}, iS3{i0}] (DeviceMesh{0 1}) = ShardByStream("
                + "T0_g___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1}), stream_index=i535)\n";
        assertEquals("FOR i535 from 0 to 3:\n  " + shard, print(loop, NEW));
        assertTrue(print(loop, OLD).startsWith("FOR i535 from 0 to 3:\n"), "a hir::ForLoop has no other form");
    }

    @Test
    void waitAndDeallocateFollowTheGeneration() {
        HostNode c = h.communication(CommunicationType.ALLREDUCE, List.of(0, 1), null, t0, t1, null,
                CommunicatorBackend.NCCL);
        assertEquals("Wait(Communication " + c.id() + ")\n", print(h.waitFor(c), NEW));
        assertEquals("Wait Communication " + c.id() + "\n", print(h.waitFor(c), OLD));
        assertEquals("Deallocate {\n  T1_l___bfloat[istreamIdx2{3}, iS3{i0}] (DeviceMesh{0 1})\n}\n",
                print(h.deallocate(t1), NEW));
        assertEquals("Deallocate {T1_l___bfloat[iStreamIdx2{3}, iS3{i0}] (DeviceMesh{0 1})}\n",
                print(h.deallocate(t1), OLD));
    }

    @Test
    void nodesTheStudioDoesNotRunPrintAsNvFuserDoesAndSayWhyTheyCannotRun() {
        LaunchKernel k = new LaunchKernel(40, 2, List.of(t0), List.of(t1));
        assertEquals("LaunchKernel(\n  Group ID: 2,\n  Inputs: {T0_g___bfloat[istreamIdx0{3}, iS1{i0}] (DeviceMesh{0 1})},"
                + "\n  Outputs: {T1_l___bfloat[istreamIdx2{3}, iS3{i0}] (DeviceMesh{0 1})},\n)\n", print(k, NEW));
        MoeDispatch d = new MoeDispatch(7, 4, CommunicatorBackend.NCCL, t0, t1, t0, t1);
        assertTrue(print(d, NEW).startsWith("Dispatch 7 (num_experts=4, backend=NCCL, in=T0_g"), print(d, NEW));
        MoeCombine c = new MoeCombine(8, CommunicatorBackend.NCCL, t0, t1, t0, t1);
        assertTrue(print(c, NEW).startsWith("Combine 8 (backend=NCCL, in=T0_g"), print(c, NEW));
        for (HostNode n : List.of(k, d, c)) {
            assertTrue(NotExecutable.reason(n).isPresent(), n.toString());
        }
        assertTrue(NotExecutable.reason(h.shardByStream(t1, t0, index)).isEmpty());
        // the backends run a SymmetricContiguousView as an Allgather of the shards (issue 33 item 4)
        assertTrue(NotExecutable.reason(h.symmetricContiguousView(t1, t0)).isEmpty());
        assertTrue(NotExecutable.reason(new Allocate(1, t0)).isEmpty());
    }

    @Test
    void theGenerationsAreNamedAsTheFlagSpellsThem() {
        assertEquals(List.of(NvFuserGeneration.V2025_06, NvFuserGeneration.V2026_04),
                NvFuserGeneration.lowerableValues());
        assertEquals(NvFuserGeneration.V2026_04, NvFuserGeneration.ofLabel("2026-04").orElseThrow());
        assertTrue(NvFuserGeneration.ofLabel("2025-01").isEmpty(), "the early spelling is read, never lowered to");
        assertEquals(NvFuserGeneration.V2026_04, NvFuserGeneration.newest());
    }
}
