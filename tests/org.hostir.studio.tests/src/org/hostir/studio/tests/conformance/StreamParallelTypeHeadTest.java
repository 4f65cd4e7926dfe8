package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.Synchronize;
import org.junit.jupiter.api.Test;

/**
 * The structure nvFuser 81c4b22fd's tests/cpp/test_multidevice_stream_parallel_type.cpp asserts of
 * {@code AllgatherInterStreamSyncNoWrap}: with {@code inter_stream_synchronization} some top-level expression holds
 * a conditional Synchronize ({@code containsConditionalSynchronize}: an IfThenElse whose then-branch synchronizes a
 * stream, stream_parallel_type.cpp:646-672); without the option there is none.
 */
class StreamParallelTypeHeadTest {
    private static final NvFuserReference PORT = new NvFuserReference("spt_allgather_inter_stream_sync_no_wrap");

    @Test
    void interStreamSynchronizationAddsAConditionalSynchronize() throws Exception {
        Map<String, String> options = Map.of("nvfuser", "2026-04", "offsetStreamIndexingByRank", "true",
                "backend", "cuda", "interStreamSynchronization", "true");
        HostIrContainer with = PORT.lowered(2, options);
        assertTrue(with.topLevel().stream().anyMatch(StreamParallelTypeHeadTest::containsConditionalSynchronize));
        // the IF synchronizes once, between two SetCurrentStreams, as nvFuser's three statements
        IfThenElse sync = conditionalSynchronizes(with.topLevel()).getFirst();
        assertEquals(List.of("SetCurrentStream", "Synchronize", "SetCurrentStream"),
                sync.thenBody().stream().map(n -> n.getClass().getSimpleName()).toList());
        assertTrue(sync.elseBody().isEmpty());

        HostIrContainer without = PORT.lowered(2, Map.of("nvfuser", "2026-04", "offsetStreamIndexingByRank", "true",
                "backend", "cuda"));
        assertFalse(without.topLevel().stream().anyMatch(StreamParallelTypeHeadTest::containsConditionalSynchronize));
    }

    private static boolean containsConditionalSynchronize(HostNode n) {
        return !conditionalSynchronizes(List.of(n)).isEmpty();
    }

    private static List<IfThenElse> conditionalSynchronizes(List<HostNode> nodes) {
        List<IfThenElse> out = new ArrayList<>();
        for (HostNode n : nodes) {
            if (n instanceof IfThenElse i && i.thenBody().stream().anyMatch(Synchronize.class::isInstance)) out.add(i);
            for (List<HostNode> body : n.bodies()) out.addAll(conditionalSynchronizes(body));
        }
        return out;
    }
}
