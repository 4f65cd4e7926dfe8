package org.hostir.studio.lower;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.StructuralHash;
import org.hostir.studio.ir.print.FusionPrinter;
import org.hostir.studio.ir.print.HostIrPrinter;

/** The program between two passes: still a fusion (before segmentation) or already Host IR. */
public sealed interface Snapshot {

    String print();

    /** Equal fingerprints mean the pass changed nothing (MLIR's print-ir-after-change). */
    long fingerprint();

    record OfFusion(Fusion fusion) implements Snapshot {
        public String print() { return FusionPrinter.print(fusion); }

        public long fingerprint() { return fusion.ops().hashCode() * 31L + fusion.outputs().hashCode(); }
    }

    record OfHost(HostIrContainer container) implements Snapshot {
        public String print() { return HostIrPrinter.print(container); }

        public long fingerprint() { return StructuralHash.withIds(container); }
    }
}
