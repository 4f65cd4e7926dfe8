package org.hostir.studio.file;

import static org.hostir.studio.file.JsonFields.field;
import static org.hostir.studio.file.JsonFields.index;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.ParallelType;

/**
 * Parses a tensor's {@code loop} steps and checks them where they are written: positions in range at each step,
 * reorders that permute, and parallel types only where nvFuser's lowering can read them back to a logical axis
 * (getProducingLogicalAxis, isValidDeviceSplit).
 */
final class LoopParser {
    static final Set<String> STEP_KEYS = Set.of("split", "outer_split", "merge", "reorder", "parallelize",
            "swizzle1d");

    /** How a loop position derives from the logical domain, tracked while the steps are read. */
    private enum Kind { LOGICAL, OUTER_OF_OUTER_SPLIT, INNER_PART, OTHER }

    private final JsonFields f;
    private final TensorParser tensors;

    LoopParser(JsonFields fields, TensorParser tensors) {
        this.f = fields;
        this.tensors = tensors;
    }

    /** The steps, or null after a reported problem; {@code rank} is the number of logical axes. */
    List<LoopStep> steps(JsonNode n, String path, int rank) {
        JsonNode.JArray a = f.array(n, path, Limits.MAX_AXES * 4);
        if (a == null) return null;
        List<Kind> loop = new ArrayList<>();
        for (int i = 0; i < rank; i++) loop.add(Kind.LOGICAL);
        List<LoopStep> steps = new ArrayList<>();
        for (int i = 0; i < a.items().size(); i++) {
            LoopStep step = step(a.items().get(i), index(path, i), loop);
            if (step == null) return null;
            steps.add(step);
        }
        return steps;
    }

    private LoopStep step(JsonNode n, String path, List<Kind> loop) {
        JsonNode.JObject o = f.object(n, path);
        if (o == null) return null;
        List<String> kinds = o.members().keySet().stream().filter(STEP_KEYS::contains).toList();
        if (kinds.size() != 1) {
            f.report(n, path, Rule.SCHEMA_REQUIRED, "a loop step has exactly one of split, outer_split, merge,"
                    + " reorder, parallelize, swizzle1d; got " + (kinds.isEmpty() ? "none" : String.join(", ", kinds)));
            return null;
        }
        String kind = kinds.get(0);
        return switch (kind) {
            case "split", "outer_split" -> split(o, path, kind, loop);
            case "merge" -> merge(o, path, loop);
            case "reorder" -> reorder(o, path, loop);
            case "swizzle1d" -> swizzle1d(o, path, loop);
            default -> parallelize(o, path, loop);
        };
    }

    private LoopStep split(JsonNode.JObject o, String path, String kind, List<Kind> loop) {
        f.allowOnly(o, path, Set.of(kind, "factor"), "a split");
        Integer axis = position(o.get(kind), field(path, kind), loop.size());
        JsonNode factorNode = f.require(o, path, "factor");
        ExtentSpec factor = factorNode == null ? null : tensors.extent(factorNode, field(path, "factor"));
        if (axis == null || factor == null) return null;
        boolean inner = kind.equals("split");
        Kind in = loop.get(axis);
        loop.set(axis, in == Kind.LOGICAL && !inner ? Kind.OUTER_OF_OUTER_SPLIT : Kind.OTHER);
        loop.add(axis + 1, Kind.INNER_PART);
        return new LoopStep.Split(axis, factor, inner);
    }

    private LoopStep merge(JsonNode.JObject o, String path, List<Kind> loop) {
        f.allowOnly(o, path, Set.of("merge"), "a merge");
        Integer axis = position(o.get("merge"), field(path, "merge"), loop.size() - 1);
        if (axis == null) return null;
        loop.remove(axis + 1);
        loop.set(axis, Kind.OTHER);
        return new LoopStep.Merge(axis);
    }

    private LoopStep reorder(JsonNode.JObject o, String path, List<Kind> loop) {
        f.allowOnly(o, path, Set.of("reorder"), "a reorder");
        JsonNode.JArray a = f.array(o.get("reorder"), field(path, "reorder"), Limits.MAX_AXES * 4);
        if (a == null) return null;
        List<Long> order = f.items(a, field(path, "reorder"),
                (item, p) -> f.integer(item, p, 0, Integer.MAX_VALUE, "a loop position"));
        if (order.size() != a.items().size()) return null;
        Set<Long> distinct = new HashSet<>(order);
        boolean permutes = order.size() == loop.size() && distinct.size() == order.size()
                && order.stream().allMatch(p -> p < loop.size());
        if (!permutes) {
            f.report(o.get("reorder"), field(path, "reorder"), Rule.LOOP_REORDER, "reorder " + order
                    + " is not a permutation of the " + loop.size() + " loop positions 0.." + (loop.size() - 1));
            return null;
        }
        List<Kind> before = List.copyOf(loop);
        for (int i = 0; i < order.size(); i++) loop.set(i, before.get(order.get(i).intValue()));
        return new LoopStep.Reorder(order.stream().map(Long::intValue).toList());
    }

    /**
     * TensorView::swizzle1d: only device parallel types ("Swizzle1D only supports device parallel types"). The
     * swizzled axis keeps its extent and stands for the same logical axis, so its derivation is unchanged.
     */
    private LoopStep swizzle1d(JsonNode.JObject o, String path, List<Kind> loop) {
        f.allowOnly(o, path, Set.of("swizzle1d", "type"), "a swizzle1d step");
        Integer axis = position(o.get("swizzle1d"), field(path, "swizzle1d"), loop.size());
        JsonNode typeNode = f.require(o, path, "type");
        ParallelType type = typeNode == null ? null : tensors.parallelType(typeNode, field(path, "type"));
        if (axis == null || type == null) return null;
        if (!type.isDeviceDim()) {
            f.report(typeNode, field(path, "type"), Rule.LOOP_SWIZZLE, "swizzle1d takes a device parallel type"
                    + " (DIDx, DIDy), given " + type.fileName() + " (nvFuser: \"Swizzle1D only supports device"
                    + " parallel types\")");
            return null;
        }
        return new LoopStep.Swizzle1D(axis, type);
    }

    private LoopStep parallelize(JsonNode.JObject o, String path, List<Kind> loop) {
        f.allowOnly(o, path, Set.of("parallelize", "type"), "a parallelize step");
        Integer axis = position(o.get("parallelize"), field(path, "parallelize"), loop.size());
        JsonNode typeNode = f.require(o, path, "type");
        ParallelType type = typeNode == null ? null : tensors.parallelType(typeNode, field(path, "type"));
        if (axis == null || type == null) return null;
        Kind k = loop.get(axis);
        if (type.isDeviceDim() && k == Kind.INNER_PART) {
            f.report(o, path, Rule.LOOP_DID_INNER_SPLIT, "loop axis " + axis + " is the inner part of a split and"
                    + " cannot be " + type.fileName() + ": shard the outer part of an outer_split instead");
            return null;
        }
        if (type.isDeviceDim() && k == Kind.OTHER) {
            f.report(o, path, Rule.LOOP_DID_SPLIT, "loop axis " + axis + " comes from an inner split, a merge or"
                    + " several splits; a " + type.fileName() + " axis is a logical axis or the outer part of one"
                    + " outer_split of a logical axis");
            return null;
        }
        // nvFuser's host IR lowering slices a Stream axis by chunking the logical axis it comes from
        // (ShardByStream: getShardedLogicalAxis, shardAllocationAsLoop): the axis must reach a logical one through
        // splits' outer parts ("we don't support DID on inner splits") and never a merge ("Expected a swizzle1d or
        // split transform"); here one outer_split, as for DIDx
        if (type == ParallelType.STREAM && k != Kind.LOGICAL && k != Kind.OUTER_OF_OUTER_SPLIT) {
            f.report(o, path, Rule.LOOP_STREAM, "loop axis " + axis + " " + (k == Kind.INNER_PART
                    ? "is the inner part of a split" : "comes from an inner split, a merge or several splits")
                    + "; a Stream axis is a logical axis or the outer part of one outer_split of a logical axis");
            return null;
        }
        return new LoopStep.Parallelize(axis, type);
    }

    /** A position below {@code size}, reported against the loop domain as it is at this step. */
    private Integer position(JsonNode n, String path, int size) {
        if (!(n instanceof JsonNode.JNumber)) {
            f.report(n, path, Rule.SCHEMA_TYPE, "expected a loop position (an integer)");
            return null;
        }
        Long v = f.integer(n, path, 0, Integer.MAX_VALUE, "a loop position");
        if (v == null) return null;
        if (v >= size) {
            f.report(n, path, Rule.LOOP_AXIS, "loop position " + v + " is out of range: the loop domain has "
                    + (size < 0 ? 0 : size) + " position" + (size == 1 ? "" : "s") + " valid here");
            return null;
        }
        return v.intValue();
    }
}
