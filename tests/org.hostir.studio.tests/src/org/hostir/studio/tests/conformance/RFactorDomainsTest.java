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
        // the partial keeps the contracted axis's local part, a reduction after its device axis, at 2026-04 only
        TensorView partial = lowered("row_parallel_linear", "2026-04").allNodes().stream()
                .filter(Communication.class::isInstance).map(Communication.class::cast).findFirst().orElseThrow()
                .input();
        assertEquals(List.of(IterType.ITERATION, IterType.REDUCTION),
                partial.axes().subList(partial.rank() - 2, partial.rank()).stream().map(IterDomain::iterType).toList());
        TensorView seedsPartial = lowered("row_parallel_linear", "2025-06").allNodes().stream()
                .filter(Communication.class::isInstance).map(Communication.class::cast).findFirst().orElseThrow()
                .input();
        assertFalse(seedsPartial.axes().getLast().isReduction(), "the seeds' partial ends in its device axis");
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
        // the device axis and the local part of the contracted axis, last (TransformRFactor replays rK{K} into
        // [iDIDx{D}, rS{K/D}], both rFactor products); the Stream split and the serial axes are not
        List<LoopDomain.Axis> rf = partial.loopDomain().loop().stream().filter(LoopDomain.Axis::rfactor).toList();
        assertEquals(List.of(ParallelType.DIDX, ParallelType.SERIAL), rf.stream().map(LoopDomain.Axis::parallelType)
                .toList());
        assertEquals(List.of(IterType.ITERATION, IterType.REDUCTION), rf.stream().map(LoopDomain.Axis::iterType)
                .toList());
        assertEquals(rf.getLast(), partial.loopDomain().loop().getLast(), "rS{K/D}rf ends the loop domain");
        // the runtime tensor is unchanged: its device axis is the last of its allocation axes
        assertEquals(ParallelType.DIDX, partial.allocationAxes().getLast().parallelType());
    }

    private static HostIrContainer lowered(String name, String generation) throws Exception {
        return new NvFuserReference(name).lowered(2, Map.of("nvfuser", generation));
    }

    private static TensorView output(String name, String generation) throws Exception {
        HostIrContainer p = lowered(name, generation);
        assertFalse(p.outputs().isEmpty());
        return p.outputs().getFirst();
    }
}
