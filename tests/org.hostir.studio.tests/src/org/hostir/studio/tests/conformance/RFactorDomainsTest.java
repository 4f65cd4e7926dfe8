package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrContainer;
import org.junit.jupiter.api.Test;

/**
 * The domains nvFuser 81c4b22fd's rFactor gives a linear whose contracted axis is sharded by an outer split
 * (rFactorLoopSplits calls {@code tv->rFactor}, csrc/preseg_passes/decompose_reshardings.cpp:372): the output keeps
 * its iteration axes and one reduction over the devices' partials, {@code [.., rDIDx{d}]}, and the partial's device
 * axis is an rFactor product, printed {@code rf} (IterDomain::toString, csrc/ir/internal_base_nodes.cpp:319-321).
 * Lowered under {@code --nvfuser 2026-04}; the seeds' generation keeps the file's output domain.
 */
class RFactorDomainsTest {
    @Test
    void theOutputTakesTheDomainTheRFactorLeavesItAt2026() throws Exception {
        TensorView out = output("row_parallel_linear", "2026-04");
        List<IterDomain> reductions = out.axes().stream().filter(IterDomain::isReduction).toList();
        assertEquals(1, reductions.size(), "one reduction axis, over the partials: " + out.axes());
        assertEquals(ParallelType.DIDX, out.loopDomain().loop().getLast().parallelType());
        assertEquals(IterType.REDUCTION, out.loopDomain().loop().getLast().iterType());
        // the seeds' generation: the file's [.., rDIDx{d}, rS{K/d}]
        TensorView seeds = output("row_parallel_linear", "2025-06");
        assertEquals(2, seeds.loopDomain().loop().stream().filter(a -> a.iterType() == IterType.REDUCTION).count());
    }

    @Test
    void theStreamSplitPartialsDeviceAxisIsMarkedAnRFactorProduct() throws Exception {
        HostIrContainer p = new NvFuserReference("row_parallel_linear_forward_stream")
                .lowered(2, Map.of("nvfuser", "2026-04", "hostIrLowering", "true"));
        TensorView partial = p.allNodes().stream().filter(Communication.class::isInstance).map(Communication.class::cast)
                .findFirst().orElseThrow().input();
        // the device axis only: the Stream split and the serial axes are not products of the rFactor
        assertEquals(List.of(ParallelType.DIDX), partial.loopDomain().loop().stream().filter(LoopDomain.Axis::rfactor)
                .map(LoopDomain.Axis::parallelType).toList());
    }

    private static TensorView output(String name, String generation) throws Exception {
        HostIrContainer p = new NvFuserReference(name).lowered(2, Map.of("nvfuser", generation));
        assertFalse(p.outputs().isEmpty());
        return p.outputs().getFirst();
    }
}
