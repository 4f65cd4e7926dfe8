package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * The schedule rules lowering relies on (DESIGN 2.2 step 1): a Stream axis is not a reduction axis, a DID
 * axis's extent matches its mesh, and a tensor has at most one Stream and one DIDx axis. The file-level rules
 * (shapes, names, cycles) are checked when the file is read.
 */
public final class ValidatePass implements FusionPass {
    public String name() { return "Validate"; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        List<LoweringError> errors = new ArrayList<>();
        for (TensorView tv : fusion.tensors()) {
            long streams = tv.axes().stream().filter(IterDomain::isStream).count();
            if (streams > 1) {
                errors.add(error(tv, "stream.single", "has " + streams
                        + " Stream axes; a tensor is pipelined along one axis"));
            }
            for (IterDomain a : tv.axes()) {
                if (a.isStream() && a.isReduction()) {
                    errors.add(error(tv, "stream.reduction",
                            "a reduction axis cannot be Stream-parallel (nvFuser rejects stream-parallel reductions)"));
                }
                if (a.isDeviceDim() && tv.mesh() != null && a.extent() instanceof Extent.Constant(long c)
                        && c != tv.mesh().size()) {
                    errors.add(error(tv, "mesh.did-extent", "its " + a.parallelType().fileName()
                            + " axis has extent " + c + " but its mesh has " + tv.mesh().size() + " devices"));
                }
                if (a.isDeviceDim() && tv.mesh() == null) {
                    errors.add(error(tv, "mesh.missing",
                            "a device-parallel axis needs a device mesh"));
                }
            }
            if (tv.mesh() != null) {
                for (int d : tv.mesh().deviceIds()) {
                    if (d < 0 || d >= context.devices()) {
                        errors.add(error(tv, "mesh.device-range", "its mesh names device " + d
                                + " but only " + context.devices() + " devices are lowered for"));
                        break;
                    }
                }
            }
        }
        if (!errors.isEmpty()) throw new LoweringException(errors);
        return fusion;
    }

    private static LoweringError error(TensorView tv, String rule, String message) {
        return new LoweringError(tv.label(), rule, message, tv.id());
    }
}
