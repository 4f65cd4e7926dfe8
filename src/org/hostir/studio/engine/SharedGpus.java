package org.hostir.studio.engine;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.Compilation;

/**
 * Ranks that share a GPU run in one process without NCCL (NCCL needs one GPU per rank), so only point-to-point
 * transfers over the copy engines can run. A collective among several ranks is therefore refused before anything
 * is allocated, at the op whose tensor it communicates, instead of failing on the first iteration.
 */
record SharedGpus() implements UpFrontCheck {
    static final String RULE = "run.share-gpus";

    @Override
    public void check(LoadedFusion loaded, Compilation compilation, BackendPlan plan) throws EngineFailure {
        RunRequest r = plan.request();
        if (plan.kind() != BackendPlan.Kind.CUDA_SHARING_GPUS || plan.gpus() >= r.devices()) return;
        for (int rank = 0; rank < r.devices(); rank++) {
            HostIrContainer program = Engine.lowerRank(loaded, compilation, rank); // kept for the run
            for (HostNode node : program.allNodes()) {
                if (node instanceof Communication c && c.team().size() > 1) {
                    throw refused(c, program.provenance().get(c.id()), loaded, plan);
                }
            }
        }
    }

    /** At the fusion op the communication was lowered from, else at the tensor it communicates. */
    private static EngineFailure refused(Communication c, Integer op, LoadedFusion loaded, BackendPlan plan) {
        Subject subject = op != null ? new Subject.Op(op)
                : RunFailures.where((c.input() != null ? c.input() : c.output()).subject(), loaded);
        String message = c.type().dumpName() + " among ranks " + c.team() + " needs NCCL, which needs one GPU"
                + " per rank, but the " + plan.request().devices() + " ranks share " + plan.gpus() + " GPU"
                + (plan.gpus() == 1 ? "" : "s") + "; with --share-gpus only point-to-point transfers over the copy"
                + " engines run (--option backend=cuda with allgather=p2p), or run on the CPU backend";
        return UpFrontCheck.refused(loaded, subject, RULE, message);
    }
}
