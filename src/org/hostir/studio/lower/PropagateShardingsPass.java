package org.hostir.studio.lower;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.rules.ShardingPropagation;

/**
 * nvFuser's PropagateShardingsPass (csrc/preseg_passes/propagate_shardings.cpp at 81c4b22fd), the first preseg pass
 * there and the first pass here: the meshes and device parallel types a fusion leaves unstated are inferred from
 * the ones it writes ({@link ShardingPropagation}), before Validate checks them and the passes after it decide
 * communications from them. A fusion that states every mesh comes out unchanged; a tensor no mesh reaches is
 * refused ({@code propagation.no-mesh}).
 */
public final class PropagateShardingsPass implements FusionPass {
    public static final String NAME = "PropagateShardings";

    public String name() { return NAME; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        ShardingPropagation.Result r = ShardingPropagation.propagate(fusion, reach(context));
        if (!r.conflicts().isEmpty()) {
            throw new LoweringException(r.conflicts().stream().map(c -> new LoweringError(c.tensor().name(),
                    c.rule().id(), c.message(), c.tensor().subject())).toList());
        }
        return r.fusion();
    }

    /**
     * nvFuser 2026-04's host_ir_lowering runs after its pre-segmenter, which propagates from every tensor; the
     * MultiDeviceExecutor paths propagate from meshed tensors only ({@link ShardingPropagation.Reach}).
     */
    private static ShardingPropagation.Reach reach(LoweringContext context) {
        boolean preSegmenter = context != null && context.generation() == NvFuserGeneration.V2026_04
                && context.options().get(ValidatePass.HOST_IR_LOWERING);
        return preSegmenter ? ShardingPropagation.Reach.EVERY_TENSOR : ShardingPropagation.Reach.WITH_MESH;
    }
}
