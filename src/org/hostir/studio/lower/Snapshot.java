package org.hostir.studio.lower;

import java.util.Objects;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.StructuralHash;
import org.hostir.studio.ir.print.FusionPrinter;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * The program between two passes: still a fusion (before segmentation) or already Host IR, printed in the dialect
 * of the nvFuser generation whose pipeline made it.
 */
public sealed interface Snapshot {

    String print();

    /** Equal fingerprints mean the pass changed nothing (MLIR's print-ir-after-change). */
    long fingerprint();

    record OfFusion(Fusion fusion, NvFuserGeneration generation) implements Snapshot {
        public OfFusion {
            Objects.requireNonNull(generation);
        }

        // the fusion prints alike in both generations here (FusionPrinter has one spelling)
        public String print() { return FusionPrinter.print(fusion); }

        public long fingerprint() { return fusion.ops().hashCode() * 31L + fusion.outputs().hashCode(); }
    }

    record OfHost(HostIrContainer container, NvFuserGeneration generation) implements Snapshot {
        public OfHost {
            Objects.requireNonNull(generation);
        }

        public String print() { return HostIrPrinter.print(container, generation); }

        public long fingerprint() { return StructuralHash.withIds(container); }
    }
}
