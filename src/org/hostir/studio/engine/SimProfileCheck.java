package org.hostir.studio.engine;

import java.util.List;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.lower.Compilation;

/**
 * A simulation times each GEMM at its profile's peak for the output dtype ({@code gemm.peakTflops}); a profile
 * that lists no peak for a GEMM the fusion has is refused before the run, at that op, rather than when the
 * simulation reaches it.
 */
record SimProfileCheck() implements UpFrontCheck {
    static final String RULE = "run.profile";

    @Override
    public void check(LoadedFusion loaded, Compilation compilation, BackendPlan plan) throws EngineFailure {
        if (plan.kind() == BackendPlan.Kind.SIM) check(loaded, plan.profile());
    }

    /** The check against {@code profile}, as a sweep makes it once for all its points. */
    static void check(LoadedFusion loaded, HardwareProfile profile) throws EngineFailure {
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            boolean gemm = ops.get(i) instanceof FusionOp.Matmul || ops.get(i) instanceof FusionOp.Linear;
            DataType dtype = ops.get(i).output().dtype();
            if (gemm && !profile.gemm().peakTflops().containsKey(dtype)) {
                throw UpFrontCheck.refused(loaded, new Subject.Op(i), RULE, "the profile " + profile.name()
                        + " has no GEMM peak for " + dtype.fileName() + " (its gemm.peakTflops lists "
                        + listed(profile) + "); add one to a copy of it");
            }
        }
    }

    private static String listed(HardwareProfile profile) {
        List<String> dtypes = profile.gemm().peakTflops().keySet().stream().map(DataType::fileName).sorted().toList();
        return dtypes.isEmpty() ? "none" : String.join(", ", dtypes);
    }
}
