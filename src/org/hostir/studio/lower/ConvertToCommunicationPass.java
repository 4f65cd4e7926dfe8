package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;

/**
 * nvFuser's ConvertOpToCommunication: each resharding expression, at top level or directly in a loop body,
 * becomes {@code Allocate} (when this rank holds the output) + {@code Communication} + {@code Wait}, once per
 * communication {@link CommunicationPlanner} chooses.
 */
public final class ConvertToCommunicationPass implements HostPass {
    private static final String NAME = "ConvertToCommunication";

    /** Also read by the stream loop's pipelined allgather (StreamParallelType), which runs before this pass. */
    public static final LoweringOption<CommunicatorBackend> BACKEND = LoweringOption.choice("backend",
            CommunicatorBackend.NCCL, "Backend", "who carries communications: NCCL, or CUDA copy-engine"
                    + " peer copies (point-to-point; Allreduce and ReduceScatter of sums as a project extension, the"
                    + " rest on NCCL)", NAME);

    public String name() { return NAME; }

    @Override
    public List<LoweringOption<?>> options() {
        return List.of(BACKEND, CudaBackendOptions.P2P_TRANSPORT, CudaBackendOptions.MULTICAST_PROTOCOL);
    }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        List<HostNode> top = new ArrayList<>();
        for (HostNode node : program.topLevel()) {
            if (node instanceof ForLoop loop) {
                List<HostNode> body = new ArrayList<>();
                for (HostNode inner : loop.body()) convert(inner, h, context, body, false);
                top.add(loop.withBody(body));
            } else {
                convert(node, h, context, top, true);
            }
        }
        return new HostIrContainer(program.inputs(), program.outputs(), top, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    /**
     * ConvertOpToCommunication's handle_top_level_expr: every communication of the expression, each preceded by
     * an Allocate of the output where this rank is in the output's mesh (the evaluator skips an Allocate of a
     * tensor it already holds) and followed by its Wait. A rank keeps the communications whose team it is not
     * in; the evaluator skips them (postSingleCommunication), so every involved rank has the same list.
     */
    private static void convert(HostNode node, HostIrBuilder h, LoweringContext context, List<HostNode> out,
                                boolean topLevel) {
        if (!(node instanceof HostOp op) || !Resharding.isResharding(op.op())) {
            out.add(node);
            return;
        }
        FusionOp expr = op.op();
        TensorView output = expr.output();
        for (CommunicationPlanner.Plan plan : CommunicationPlanner.plan(expr, context.rank())) {
            MulticastCollectives.check(expr, plan, context, topLevel);
            if (output.mesh().contains(context.rank())) out.add(h.inherit(op.id(), h.allocate(output)));
            var comm = h.inherit(op.id(), h.communication(plan.type(), plan.team(),
                    plan.type().hasRoot() ? Scalar.constant(plan.root()) : null, expr.inputs().get(0), output,
                    plan.reduction(), context.options().get(BACKEND)));
            out.add(comm);
            out.add(h.inherit(op.id(), h.waitFor(comm)));
        }
    }
}
