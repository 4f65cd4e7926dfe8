package org.hostir.studio.engine;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.Compilation;

/**
 * What {@link Engine#run} refuses a planned run for before its backend opens, at the fusion's op: each check is
 * about one backend's limits, and the first that refuses names the run's problem ({@link #ALL}'s order).
 */
sealed interface UpFrontCheck permits SharedGpus, SimProfileCheck, CudaKernelCheck {
    /** The checks in the order they run. */
    List<UpFrontCheck> ALL = List.of(new SharedGpus(), new SimProfileCheck(), new CudaKernelCheck());

    /** Nothing when {@code plan} may run {@code loaded} as far as this check knows, else the refusal. */
    void check(LoadedFusion loaded, Compilation compilation, BackendPlan plan) throws EngineFailure;

    /** Every check of {@link #ALL}, in order. */
    static void all(LoadedFusion loaded, Compilation compilation, BackendPlan plan) throws EngineFailure {
        for (UpFrontCheck c : ALL) c.check(loaded, compilation, plan);
    }

    /** Bad input under {@code rule}, at the line and path of {@code subject} in the fusion file. */
    static EngineFailure refused(LoadedFusion loaded, Subject subject, String rule, String message) {
        FusionLocator.Location at = loaded.locator().locate(subject);
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(loaded.source().file(),
                at.line(), at.path(), rule, message, subject)));
    }
}
