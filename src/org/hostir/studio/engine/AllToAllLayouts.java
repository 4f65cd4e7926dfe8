package org.hostir.studio.engine;

import java.util.List;

import org.hostir.studio.exec.AllToAllLayout;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;

/**
 * {@code check}'s part of the AllToAll layout rule that the lowering cannot decide: whether a device axis sharded
 * by a split of a larger extent (a loop split by D of an extent M) comes before the moved axis with more than one
 * element per rank. The lowering refuses a plain axis there ({@code sharding.alltoall-layout}) but has no symbol
 * values; the file has them, so {@code check} evaluates each rank's AllToAlls on the local shapes a run would
 * allocate ({@link AllToAllLayout#problem}, what the evaluator would refuse with "[run]" and no file line) and
 * refuses with the rule at the set's line. A symbol without a value leaves it to the run (run.symbol-unbound).
 */
final class AllToAllLayouts {
    static final String RULE = "sharding.alltoall-layout";

    private AllToAllLayouts() {}

    /** Refuses the first AllToAll of {@code program} (rank {@code rank}'s) whose chunks are not its slices. */
    static void check(HostIrContainer program, LoadedFusion loaded, int rank, LoweringOptions options) {
        ScalarEnv env = new ScalarEnv(loaded.bindings().asMap(), rank, options.numberOfStreams());
        for (HostNode n : program.allNodes()) {
            if (!(n instanceof Communication c) || c.type() != CommunicationType.ALL_TO_ALL) continue;
            String problem;
            try {
                problem = AllToAllLayout.problem(c, env);
            } catch (ExecutionException unbound) {
                return; // a symbol without a value: the run refuses it up front
            }
            if (problem != null) throw new LoweringException(fileOp(c, loaded), RULE, problem);
        }
    }

    /** The file's op the AllToAll serves: the one that defines its output, else the first use of its input. */
    private static FusionOp fileOp(Communication c, LoadedFusion loaded) {
        for (TensorView tv : List.of(c.output(), c.input())) {
            for (FusionOp op : loaded.fusion().ops()) {
                if (op.output().id() == tv.id() || op.inputs().stream().anyMatch(i -> i.id() == tv.id())) return op;
            }
        }
        return loaded.fusion().ops().getFirst();
    }
}
