package org.hostir.studio.engine;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.exec.cuda.CudaKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.lower.Compilation;

/**
 * A fusion with an op the CUDA backend has no kernel for ({@link CudaKernels}) is refused before a CUDA run opens
 * its devices, at that op's line, instead of failing on the first iteration with every rank's communicators
 * aborted.
 */
record CudaKernelCheck() implements UpFrontCheck {
    static final String RULE = "run.cuda-kernel";

    @Override
    public void check(LoadedFusion loaded, Compilation compilation, BackendPlan plan) throws EngineFailure {
        switch (plan.kind()) {
            case CPU, SIM -> { return; }
            case CUDA, CUDA_SHARING_GPUS, CUDA_LAUNCHED -> { }
        }
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            Optional<String> why = CudaKernels.missing(ops.get(i));
            if (why.isEmpty()) continue;
            throw UpFrontCheck.refused(loaded, new Subject.Op(i), RULE, ops.get(i).opName() + " of "
                    + ops.get(i).output().name() + ": " + why.get());
        }
    }
}
