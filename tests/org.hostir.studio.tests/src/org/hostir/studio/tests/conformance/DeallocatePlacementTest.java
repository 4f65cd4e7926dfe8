package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.Wait;
import org.junit.jupiter.api.Test;

/**
 * Where nvFuser 81c4b22fd's AllocateAndDeallocate puts a Deallocate, checked on the lowering of two ported
 * programs. insertDeallocations frees a tensor right after the lowest common ancestor, in the post-dominator tree,
 * of the nodes that list it among their Expr inputs or outputs (csrc/host_ir/allocate_and_deallocate.cpp:249-268,
 * 312-321). {@code hir::Wait} lists neither: it holds its Communication as an attribute
 * ({@code Expr(passkey, {}, {}, {expr})}, csrc/host_ir/ir.cpp:253-254), so a communication's buffers are freed
 * between the Communication and its Wait, not after the Wait. AssignStreams runs after it (csrc/host_ir/passes.cpp:16-19)
 * and inserts the joining loop before the node that followed the stream loop (assign_streams.cpp:23, 49-53), so a
 * free that follows a loop ends up after the joining loop.
 */
class DeallocatePlacementTest {
    private static final Map<String, String> HOST_IR_LOWERING = Map.of("nvfuser", "2026-04", "hostIrLowering", "true");

    @Test
    void aCommunicationsBuffersAreFreedBeforeItsWaitAsWaitListsNoTensor() throws Exception {
        HostIrContainer program = new NvFuserReference("row_parallel_linear_forward_stream").lowered(2, HOST_IR_LOWERING);
        List<HostNode> body = ((ForLoop) program.topLevel().stream().filter(ForLoop.class::isInstance).findFirst()
                .orElseThrow()).body();
        int comm = indexOf(body, Communication.class);
        Communication c = (Communication) body.get(comm);
        // the partial (the Allreduce's input) and the output's chunk (its output): their last use is the Communication
        List<String> freedAfter = freedFrom(body, comm + 1);
        assertEquals(List.of(c.input().name(), c.output().name()), freedAfter, "frees right after the Communication");
        Wait w = assertInstanceOf(Wait.class, body.get(comm + 1 + freedAfter.size()));
        assertEquals(c.id(), w.communicationId());
        assertEquals(body.size() - 1, comm + 1 + freedAfter.size(), "the Wait closes the body");
        // the input's chunk is freed right after the linear, its one reader
        int linear = indexOf(body, HostOp.class);
        assertEquals(List.of(((HostOp) body.get(linear)).op().inputs().getFirst().name()), freedFrom(body, linear + 1));
    }

    @Test
    void aTensorReadInALaterLoopIsFreedAfterThatLoopsJoiningLoop() throws Exception {
        HostIrContainer program = new NvFuserReference("stream_two_matmuls_not_inlinable_2026")
                .lowered(1, HOST_IR_LOWERING);
        List<HostNode> top = program.topLevel();
        Deallocate last = assertInstanceOf(Deallocate.class, top.getLast());
        // the first matmul's output: allocated before the first loop, last read in the second; the post-dominator
        // tree's ancestor of both is the second loop, and the joining loop AssignStreams adds goes in before the free
        assertEquals("T3", last.buffer().name());
        assertInstanceOf(ForLoop.class, top.get(top.size() - 2), "the joining loop");
        assertInstanceOf(SetCurrentStream.class, top.get(top.size() - 3));
        List<Integer> loops = new ArrayList<>();
        for (int i = 0; i < top.size(); i++) if (top.get(i) instanceof ForLoop) loops.add(i);
        assertEquals(4, loops.size(), "two stream loops and their joining loops: " + loops);
        assertTrue(top.stream().filter(Deallocate.class::isInstance).count() == 1, "one free at the top level");
    }

    private static int indexOf(List<HostNode> nodes, Class<? extends HostNode> kind) {
        for (int i = 0; i < nodes.size(); i++) if (kind.isInstance(nodes.get(i))) return i;
        throw new AssertionError("no " + kind.getSimpleName() + " in " + nodes);
    }

    private static List<String> freedFrom(List<HostNode> nodes, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < nodes.size() && nodes.get(i) instanceof Deallocate d; i++) out.add(d.buffer().name());
        return out;
    }
}
