package org.hostir.studio.lower;

import org.hostir.studio.ir.Fusion;

/**
 * A pass that rewrites the fusion before it becomes Host IR. It must not read the rank: the leading fusion passes
 * run once for every rank ({@link Compilation}, in rank 0's context; {@code CompilationTest} compares every
 * example's every rank with the per-rank pipeline).
 */
public interface FusionPass extends Pass {

    Fusion run(Fusion fusion, LoweringContext context);

    @Override
    default Snapshot apply(Snapshot before, LoweringContext context) {
        if (!(before instanceof Snapshot.OfFusion(var fusion, _))) {
            throw new IllegalStateException(name() + " runs before segmentation, on the fusion");
        }
        return new Snapshot.OfFusion(run(fusion, context), context.generation());
    }
}
