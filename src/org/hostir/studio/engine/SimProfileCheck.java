package org.hostir.studio.engine;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;

/**
 * A simulation times each GEMM at its profile's peak for the output dtype ({@code gemm.peakTflops}); a profile
 * that lists no peak for a GEMM the fusion has is refused before the run, at that op, rather than when the
 * simulation reaches it.
 */
final class SimProfileCheck {
    static final String RULE = "run.profile";

    private SimProfileCheck() {}

    static void check(LoadedFusion loaded, BackendPlan plan) throws EngineFailure {
        if (plan.kind() == BackendPlan.Kind.SIM) check(loaded, plan.profile());
    }

    static void check(LoadedFusion loaded, HardwareProfile profile) throws EngineFailure {
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            boolean gemm = ops.get(i) instanceof FusionOp.Matmul || ops.get(i) instanceof FusionOp.Linear;
            DataType dtype = ops.get(i).output().dtype();
            if (gemm && !profile.gemm().peakTflops().containsKey(dtype)) {
                Subject subject = new Subject.Op(i);
                FusionLocator.Location at = loaded.locator().locate(subject);
                throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(loaded.source().file(),
                        at.line(), at.path(), RULE, "the profile " + profile.name() + " has no GEMM peak for "
                        + dtype.fileName() + " (its gemm.peakTflops lists " + listed(profile) + "); add one to a copy"
                        + " of it",
                        subject)));
            }
        }
    }

    private static String listed(HardwareProfile profile) {
        List<String> dtypes = profile.gemm().peakTflops().keySet().stream().map(DataType::fileName).sorted().toList();
        return dtypes.isEmpty() ? "none" : String.join(", ", dtypes);
    }
}
