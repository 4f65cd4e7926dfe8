package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.PostOnStream;

/**
 * Which tensor of the fusion file a tensor the lowering made stands for, so that a refusal about it is reported
 * at a line of the file. The passes make tensors of their own (the set DecomposeReshardings puts in front of an op,
 * ReorderShardedAxis's permutes, a stream loop's slices); a user can only act on the file's, so a refusal about
 * one names the file tensor it was made for: a slice stands for what it slices, a tensor for the first file tensor
 * computed from it (the op the lowering prepared it for), else the program output it became, else what it was
 * computed from. The data flow is read from the snapshots the pipeline has passed through, and only on a refusal.
 */
final class FileOrigins {
    private final Set<Integer> file = new HashSet<>();
    private final Map<Integer, TensorView> tensors = new HashMap<>();
    private final Map<Integer, List<Integer>> consumers = new HashMap<>();
    private final Map<Integer, List<Integer>> producers = new HashMap<>();
    private final Map<Integer, Integer> slices = new HashMap<>();
    private final Map<Integer, Integer> outputPosition = new HashMap<>();
    private final List<TensorView> fileOutputs;

    /** {@code seen}: the pipeline's input (the file's fusion) first, then the snapshot each pass produced. */
    private FileOrigins(Fusion input, List<Snapshot> seen) {
        input.tensors().forEach(t -> {
            file.add(t.id());
            know(t);
        });
        input.outputs().forEach(t -> {
            file.add(t.id());
            know(t);
        });
        fileOutputs = input.outputs();
        for (Snapshot s : seen) {
            switch (s) {
                case Snapshot.OfFusion(Fusion f, _) -> {
                    f.ops().forEach(op -> flow(op.inputs(), List.of(op.output())));
                    outputs(f.outputs());
                }
                case Snapshot.OfHost(HostIrContainer c, _) -> {
                    nodes(c.topLevel());
                    outputs(c.outputs());
                }
            }
        }
    }

    /**
     * The refusal with every error about a tensor the file lacks moved to the file tensor it stands for; unchanged
     * when the pipeline's input is not a fusion (nothing to locate against).
     */
    static LoweringException relocate(LoweringException e, Snapshot input, List<Snapshot> seen) {
        if (!(input instanceof Snapshot.OfFusion(Fusion fusion, _))) return e;
        FileOrigins origins = new FileOrigins(fusion, seen);
        List<LoweringError> errors = e.errors().stream().map(origins::relocate).toList();
        if (errors.equals(e.errors())) return e;
        LoweringException moved = new LoweringException(errors);
        moved.setStackTrace(e.getStackTrace());
        return moved;
    }

    private LoweringError relocate(LoweringError error) {
        Subject.Tensor about = switch (error.subject()) {
            case Subject.Tensor t -> t;
            case Subject.Axis a -> a.tensor();
            case Subject.Mesh m -> m.tensor();
            case Subject.Op _, Subject.Input _, Subject.Output _, Subject.Json _, Subject.Setting _ -> null;
        };
        if (about == null || file.contains(about.index())) return error;
        Optional<TensorView> origin = resolve(about.index(), new HashSet<>());
        if (origin.isEmpty()) return error;
        Subject.Tensor to = origin.get().subject();
        Subject subject = error.subject() instanceof Subject.Mesh ? new Subject.Mesh(to) : to;
        return new LoweringError(error.where() + " (made by the lowering for " + origin.get().label() + ")",
                error.rule(), error.message(), subject);
    }

    private Optional<TensorView> resolve(int id, Set<Integer> visited) {
        if (file.contains(id)) return Optional.ofNullable(tensors.get(id));
        if (!visited.add(id)) return Optional.empty();
        if (slices.containsKey(id)) return resolve(slices.get(id), visited);
        for (int c : consumers.getOrDefault(id, List.of())) {
            Optional<TensorView> r = resolve(c, visited);
            if (r.isPresent()) return r;
        }
        Integer position = outputPosition.get(id);
        if (position != null && position < fileOutputs.size()) return Optional.of(fileOutputs.get(position));
        for (int p : producers.getOrDefault(id, List.of())) {
            Optional<TensorView> r = resolve(p, visited);
            if (r.isPresent()) return r;
        }
        return Optional.empty();
    }

    private void nodes(List<HostNode> nodes) {
        for (HostNode n : nodes) {
            // only nodes that carry data flow matter here; an if-chain, since a switch over HostNode would have to
            // list every other kind
            if (n instanceof HostOp h) flow(h.op().inputs(), List.of(h.op().output()));
            if (n instanceof PostOnStream p) {
                flow(p.inputs(), p.outputs());
                p.unit().ops().forEach(op -> flow(op.inputs(), List.of(op.output())));
            }
            if (n instanceof HirAliasSelect s) {
                know(s.in());
                know(s.out());
                slices.putIfAbsent(s.out().id(), s.in().id());
            }
            n.bodies().forEach(this::nodes);
        }
    }

    private void flow(List<TensorView> ins, List<TensorView> outs) {
        for (TensorView out : outs) {
            know(out);
            for (TensorView in : ins) {
                know(in);
                add(consumers, in.id(), out.id());
                add(producers, out.id(), in.id());
            }
        }
    }

    private void outputs(List<TensorView> outputs) {
        for (int i = 0; i < outputs.size(); i++) {
            know(outputs.get(i));
            outputPosition.putIfAbsent(outputs.get(i).id(), i);
        }
    }

    private void know(TensorView t) { tensors.putIfAbsent(t.id(), t); }

    private static void add(Map<Integer, List<Integer>> edges, int from, int to) {
        List<Integer> list = edges.computeIfAbsent(from, k -> new ArrayList<>());
        if (!list.contains(to)) list.add(to);
    }
}
