package org.hostir.studio.engine;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.exec.cuda.CudaKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;

/**
 * A fusion with an op the CUDA backend has no kernel for ({@link CudaKernels}) is refused before a CUDA run opens
 * its devices, at that op's line, instead of failing on the first iteration with every rank's communicators
 * aborted.
 */
final class CudaKernelCheck {
    static final String RULE = "run.cuda-kernel";

    private CudaKernelCheck() {}

    static void check(LoadedFusion loaded, BackendPlan plan) throws EngineFailure {
        switch (plan.kind()) {
            case CPU, SIM -> { return; }
            case CUDA, CUDA_SHARING_GPUS, CUDA_LAUNCHED -> { }
        }
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            Optional<String> why = CudaKernels.missing(ops.get(i));
            if (why.isEmpty()) continue;
            Subject subject = new Subject.Op(i);
            FusionLocator.Location at = loaded.locator().locate(subject);
            throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(loaded.source().file(),
                    at.line(), at.path(), RULE, ops.get(i).opName() + " of " + ops.get(i).output().name() + ": "
                    + why.get(), subject)));
        }
    }
}
