package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.SymmetricContiguousView;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * Frees every intermediate buffer after the last top-level node that touches it (a loop counts as a whole),
 * never a fusion input or output, never a slice (a view). Off by default, as in the seeds' pipeline
 * (nvFuser's InsertDeallocations pass is the model).
 */
public final class InsertDeallocationsPass implements HostPass {
    private static final String NAME = "InsertDeallocations";

    public static final LoweringOption<Boolean> INSERT_DEALLOCATIONS = LoweringOption.flag("insertDeallocations",
            false, "Deallocations", "free each intermediate buffer after its last use (off in the seeds' pipeline)",
            NAME);

    public String name() { return NAME; }

    @Override
    public List<LoweringOption<?>> options() { return List.of(INSERT_DEALLOCATIONS); }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        if (!context.options().get(INSERT_DEALLOCATIONS)) return program;
        Set<Integer> keep = new HashSet<>();
        program.inputs().forEach(t -> keep.add(t.id()));
        program.outputs().forEach(t -> keep.add(t.id()));
        Set<Integer> views = new HashSet<>();
        for (HostNode n : program.allNodes()) {
            if (n instanceof HirAliasSelect s) views.add(s.out().id());
        }
        Map<Integer, Integer> lastUse = new java.util.LinkedHashMap<>();
        Map<Integer, TensorView> buffers = new HashMap<>();
        List<HostNode> top = program.topLevel();
        for (int i = 0; i < top.size(); i++) {
            for (TensorView tv : touched(top.get(i))) {
                if (keep.contains(tv.id()) || views.contains(tv.id())) continue;
                lastUse.put(tv.id(), i);
                buffers.putIfAbsent(tv.id(), tv);
            }
        }
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        List<HostNode> out = new ArrayList<>();
        for (int i = 0; i < top.size(); i++) {
            out.add(top.get(i));
            for (var e : lastUse.entrySet()) {
                if (e.getValue() == i) out.add(h.deallocate(buffers.get(e.getKey())));
            }
        }
        return new HostIrContainer(program.inputs(), program.outputs(), out, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    /** Every tensor a node (and its bodies) reads, writes or allocates, in order. */
    static List<TensorView> touched(HostNode node) {
        List<TensorView> out = new ArrayList<>();
        switch (node) {
            case Allocate a -> out.add(a.buffer());
            case Deallocate d -> out.add(d.buffer());
            case HirAliasSelect s -> {
                out.add(s.in());
                out.add(s.out());
            }
            case Communication c -> {
                out.add(c.input());
                out.add(c.output());
            }
            case CollectivePermute c -> {
                out.add(c.input());
                out.add(c.output());
            }
            case ShardByStream b -> {
                out.add(b.in());
                out.add(b.out());
            }
            case SymmetricContiguousView v -> {
                out.add(v.in());
                out.add(v.out());
            }
            case LaunchKernel k -> {
                out.addAll(k.inputs());
                out.addAll(k.outputs());
            }
            case MoeDispatch d -> out.addAll(d.tensors());
            case MoeCombine c -> out.addAll(c.tensors());
            case P2PCommunication p -> out.add(p.buffer());
            case PostOnStream p -> {
                out.addAll(p.inputs());
                out.addAll(p.outputs());
            }
            case HostOp o -> {
                FusionOp op = o.op();
                out.addAll(op.inputs());
                out.add(op.output());
            }
            case ForLoop f -> f.body().forEach(n -> out.addAll(touched(n)));
            case IfThenElse i -> {
                i.thenBody().forEach(n -> out.addAll(touched(n)));
                i.elseBody().forEach(n -> out.addAll(touched(n)));
            }
            // listed, not defaulted: a new node kind must say which tensors it touches
            // the P2P nodes it names follow it in the body and count there
            case GetCurrentStream _, SetCurrentStream _, Synchronize _, StartCoalescing _, EndCoalescing _,
                 ShareMemHandles _, Wait _ -> { }
            // only a dump read from text holds one, and passes run on lowered fusions, never on dumps
            case OpaqueNode o -> throw new IllegalStateException("a lowering pass met the opaque dump statement '"
                    + o.headline() + "'");
        }
        return out;
    }
}
