package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * The parallel types a loop domain puts on the logical axes: each parallelized loop axis marks the logical axis
 * it derives from (nvFuser's getLogicalFromLoopId). Only derivations the lowering understands are accepted: a
 * logical axis itself, or the outer part of an outer split of one (a device or Stream axis); the file reader
 * reports the others first.
 */
final class LoopProjection {
    private LoopProjection() {}

    static List<IterDomain> project(List<IterDomain> axes, LoopDomain loop) {
        List<IterDomain> out = new ArrayList<>(axes);
        for (int i = 0; i < loop.loop().size(); i++) {
            LoopDomain.Axis a = loop.loop().get(i);
            if (a.parallelType() == ParallelType.SERIAL) continue;
            LoopDomain.Source src = loop.source(i);
            boolean direct = src.derivation() == LoopDomain.Derivation.LOGICAL;
            // a Stream axis so split is chunked along its logical axis (nvFuser's ShardByStream)
            boolean deviceSplit = src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT
                    && (a.isDeviceDim() || a.parallelType() == ParallelType.STREAM);
            if (!direct && !deviceSplit) {
                throw new IllegalArgumentException("loop axis " + a.id() + " is " + a.parallelType().fileName()
                        + " but does not derive from a logical axis by an outer split");
            }
            int p = src.logicalPosition();
            out.set(p, out.get(p).withParallelType(a.parallelType()));
        }
        return out;
    }
}
