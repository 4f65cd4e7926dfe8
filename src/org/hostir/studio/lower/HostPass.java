package org.hostir.studio.lower;

import org.hostir.studio.ir.host.HostIrContainer;

/** A Host IR to Host IR pass (nvFuser's OptimizationPass). */
public interface HostPass extends Pass {

    HostIrContainer run(HostIrContainer program, LoweringContext context);

    @Override
    default Snapshot apply(Snapshot before, LoweringContext context) {
        if (!(before instanceof Snapshot.OfHost(var program, _))) {
            throw new IllegalStateException(name() + " runs after segmentation, on Host IR");
        }
        return new Snapshot.OfHost(run(program, context), context.generation());
    }
}
