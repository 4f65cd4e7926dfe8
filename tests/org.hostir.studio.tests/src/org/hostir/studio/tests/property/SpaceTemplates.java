package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.UnaryOpType;

/**
 * The one-op fusions of the generated space ({@link SpaceGenerator}): for each file op ({@link OpKind}, so a new op
 * of an existing family is covered without a change here, and a new family fails to compile at the exhaustive
 * switch) at each dtype ({@link DataType}), one or more shapes, written over dimension ids so that a sharding can
 * be put on "the same axis" of every tensor. Dimension 0, 1 and 2 are the plain axes a, b, c; -1 is a broadcast
 * axis; 3 is a reshape's merged axis b * c or an expand's new extent.
 */
final class SpaceTemplates {
    static final int BROADCAST = -1;
    static final int MERGED = 3;

    /** A tensor of a template: its dims by id, which of them are reduction axes, whether it is a fusion input. */
    record Skel(String name, String dtype, int[] dims, boolean[] reduced, boolean input) {
        boolean has(int dim) { return Arrays.stream(dims).anyMatch(d -> d == dim); }

        Skel renamed(String n, boolean in) { return new Skel(n, dtype, dims, reduced, in); }
    }

    /** {@code attribute}: the op's extra JSON member ({@code "axes": [0]}) or empty. */
    record OpT(String op, List<String> inputs, String output, String attribute) {
        String json() {
            String in = inputs.stream().map(i -> "\"" + i + "\"").collect(Collectors.joining(", ", "[", "]"));
            return "{\"op\": \"" + op + "\", \"inputs\": " + in + ", \"output\": \"" + output + "\""
                    + (attribute.isEmpty() ? "" : ", " + attribute) + "}";
        }
    }

    /** One or more ops; the last tensor is the fusion's output. {@code label} names the shape, for reports. */
    record Template(String label, List<Skel> tensors, List<OpT> ops) {
        Skel output() { return tensors.getLast(); }

        Skel input0() { return tensors.stream().filter(Skel::input).findFirst().orElseThrow(); }

        /** The output's first kept axis that the first input has, or -1. */
        int first() { return kept(0); }

        /** The output's second kept axis that the first input has, or -1. */
        int second() { return kept(1); }

        /** The output's first reduction axis, or -1. */
        int reduced() {
            Skel o = output();
            for (int k = 0; k < o.dims().length; k++) if (o.reduced()[k]) return o.dims()[k];
            return -1;
        }

        private int kept(int nth) {
            Skel o = output();
            int seen = 0;
            for (int k = 0; k < o.dims().length; k++) {
                int d = o.dims()[k];
                if (d < 0 || d == MERGED || o.reduced()[k] || !input0().has(d)) continue;
                if (seen++ == nth) return d;
            }
            return -1;
        }
    }

    private SpaceTemplates() {}

    /** Every template of {@code kind} whose first input is of {@code dtype}. */
    static List<Template> of(OpKind kind, DataType dtype) {
        String t = dtype.fileName();
        String op = kind.fileName();
        return switch (kind.family()) {
            case SET -> List.of(one("set", op, t, t, dims(0, 1), dims(0, 1), ""),
                    one("set_permute", op, t, t, dims(0, 1), dims(1, 0), "\"permute\": [1, 0]"),
                    one("set_broadcast_first", op, t, t, dims(BROADCAST, 0, 1), dims(BROADCAST, 0, 1), ""));
            case UNARY -> kind == OpKind.CAST ? casts(t)
                    : List.of(one(op, op, t, unaryResult(kind, dtype), dims(0, 1), dims(0, 1), ""));
            case BINARY -> List.of(two(op, op, t, dims(0, 1), dims(0, 1)),
                    two(op + "_broadcast", op, t, dims(0, 1), dims(BROADCAST, 1)), selfChain(op, t));
            case WHERE -> List.of(where(t));
            case REDUCTION -> List.of(reduction(op, t, 0), reduction(op, t, 1), longReduction(op, t));
            case BROADCAST -> List.of(one("broadcast_last", op, t, t, dims(0, 1), dims(0, 1, BROADCAST),
                            "\"flags\": [false, false, true]"),
                    one("broadcast_first", op, t, t, dims(0, 1), dims(BROADCAST, 0, 1), "\"flags\": [true, false, false]"));
            case SQUEEZE -> List.of(one(op, op, t, t, dims(0, BROADCAST, 1), dims(0, 1), "\"flags\": [false, true, false]"));
            case EXPAND -> List.of(one(op, op, t, t, dims(0, BROADCAST), dims(0, MERGED), ""));
            case RESHAPE -> List.of(one(op, op, t, t, dims(0, 1, 2), dims(0, MERGED), ""));
            case MATMUL -> List.of(matmul(t));
            case LINEAR -> List.of(linear(t, true), linear(t, false));
            case INDEX_SELECT -> List.of(indexSelect(op, t));
            case TAKE_ALONG_AXIS -> List.of(takeAlongAxis(op, t));
            case TOPK -> List.of(topk(op, t, true), topk(op, t, false));
            case SCATTER -> List.of(scatter(op, t));
            case GROUPED_MM -> List.of(groupedMm(op, t, true), groupedMm(op, t, false), groupedMmColumns(op, t));
        };
    }

    /** The output dtype nvFuser gives a unary op ({@link UnaryOpType#resultType}, the op's declaration). */
    private static String unaryResult(OpKind kind, DataType dtype) {
        return kind.unaryOp().map(u -> u.resultType(dtype)).orElse(dtype).fileName();
    }

    /** A cast to every dtype. */
    private static List<Template> casts(String from) {
        List<Template> all = new ArrayList<>();
        for (DataType to : DataType.values()) {
            all.add(one("cast_to_" + to.fileName(), "cast", from, to.fileName(), dims(0, 1), dims(0, 1), ""));
        }
        return all;
    }

    /** A matmul or linear of fp8 operands writes float (cuBLASLt's fp8 GEMM); others keep the operands' dtype. */
    private static String gemmOut(String t) { return t.startsWith("float8") ? "float" : t; }

    private static Template one(String label, String op, String in, String out, int[] inDims, int[] outDims,
                                String attribute) {
        return new Template(label, List.of(input("x", in, inDims), output("y", out, outDims, -1)),
                List.of(new OpT(op, List.of("x"), "y", attribute)));
    }

    private static Template two(String label, String op, String t, int[] xDims, int[] wDims) {
        return new Template(label, List.of(input("x", t, xDims), input("w", t, wDims), output("z", t, dims(0, 1), -1)),
                List.of(new OpT(op, List.of("x", "w"), "z", "")));
    }

    private static Template where(String t) {
        return new Template("where", List.of(input("x", t, dims(0, 1)), input("c", "bool", dims(0, 1)),
                input("w", t, dims(0, 1)), output("z", t, dims(0, 1), -1)),
                List.of(new OpT("where", List.of("c", "x", "w"), "z", "")));
    }

    /**
     * An op applied to its own result five times ({@code x * x}, then that squared, ...): products far past 2^24
     * and 2^31, where integer dtypes must wrap exactly (two's complement) and floats overflow as PyTorch's do.
     */
    private static Template selfChain(String op, String t) {
        List<Skel> tensors = new ArrayList<>(List.of(input("x", t, dims(0, 1))));
        List<OpT> ops = new ArrayList<>();
        String prev = "x";
        for (int i = 1; i <= CHAIN; i++) {
            String name = i == CHAIN ? "y" : "t" + i;
            tensors.add(output(name, t, dims(0, 1), -1));
            ops.add(new OpT(op, List.of(prev, prev), name, ""));
            prev = name;
        }
        return new Template(op + "_chain", List.copyOf(tensors), List.copyOf(ops));
    }

    static final int CHAIN = 5;

    /** A reduction over a long axis (extent 16 to 23, {@link #MERGED}): a product of that many factors. */
    private static Template longReduction(String op, String t) {
        return new Template(op + "_long", List.of(input("x", t, dims(0, MERGED)), output("y", t, dims(0, MERGED), 1)),
                List.of(new OpT(op, List.of("x"), "y", "\"axes\": [1]")));
    }

    private static Template reduction(String op, String t, int axis) {
        return new Template(op + "_axis" + axis, List.of(input("x", t, dims(0, 1)), output("y", t, dims(0, 1), axis)),
                List.of(new OpT(op, List.of("x"), "y", "\"axes\": [" + axis + "]")));
    }

    /** a [m, k] x b [k, n] -> [m, n, rk]: dims m = 0, k = 1, n = 2. */
    private static Template matmul(String t) {
        return new Template("matmul", List.of(input("a", t, dims(0, 1)), input("b", t, dims(1, 2)),
                output("c", gemmOut(t), dims(0, 2, 1), 2)), List.of(new OpT("matmul", List.of("a", "b"), "c", "")));
    }

    /** x [m, k], weight [n, k], bias [n] -> [m, n, rk]. */
    private static Template linear(String t, boolean bias) {
        List<Skel> tensors = new ArrayList<>(List.of(input("x", t, dims(0, 1)), input("w", t, dims(2, 1))));
        if (bias) tensors.add(input("bias", gemmOut(t), dims(2)));
        tensors.add(output("y", gemmOut(t), dims(0, 2, 1), 2));
        List<String> in = bias ? List.of("x", "w", "bias") : List.of("x", "w");
        return new Template(bias ? "linear_bias" : "linear", List.copyOf(tensors),
                List.of(new OpT("linear", in, "y", "")));
    }

    /** x [a, b] and a router's token ids route [c] (int64, drawn in [0, a)) -> x's rows [c, b] (IndexSelectOp). */
    private static Template indexSelect(String op, String t) {
        return new Template(op + "_rows", List.of(input("x", t, dims(0, 1)), input("route", "int64", dims(2)),
                output("y", t, dims(2, 1), -1)), List.of(new OpT(op, List.of("x", "route"), "y", "\"axes\": [0]")));
    }

    /** x [a, b] and per row c picks among b, ids [a, c] (int64, drawn in [0, b)) -> [a, c] (GatherOp, exact sizes). */
    private static Template takeAlongAxis(String op, String t) {
        return new Template(op + "_last", List.of(input("x", t, dims(0, 1)), input("ids", "int64", dims(0, 2)),
                output("y", t, dims(0, 2), -1)), List.of(new OpT(op, List.of("x", "ids"), "y", "\"axes\": [1]")));
    }

    /**
     * x [a, b] -> [a, c], the c largest (smallest, unsorted) of each row; the values' dtype is x's, the indices'
     * int64 ({@link SpaceRender} keeps c within b).
     */
    private static Template topk(String op, String t, boolean largest) {
        String out = op.equals("topk_indices") ? "int64" : t;
        return new Template(op + (largest ? "_largest" : "_smallest"), List.of(input("x", t, dims(0, 1)),
                output("y", out, dims(0, 2), -1)), List.of(new OpT(op, List.of("x"), "y",
                "\"axes\": [1], \"flags\": [" + largest + ", " + largest + "]")));
    }

    /** self [a, b], index and src [c, b] (c within a, distinct rows drawn per column) -> [a, b] (at::scatter). */
    private static Template scatter(String op, String t) {
        return new Template(op + "_rows", List.of(input("x", t, dims(0, 1)), input("ids", "int64", dims(2, 1)),
                input("w", t, dims(2, 1)), output("y", t, dims(0, 1), -1)),
                List.of(new OpT(op, List.of("x", "ids", "w"), "y", "\"axes\": [0]")));
    }

    /**
     * Experts: x [a, b] x w [c, b, n] with int32 offsets [c] splitting a -> [a, n, rb]; or x [a, b] x w [b, n]
     * with offsets [c] splitting b -> [c, a, n, rb] (createGroupedMmaOutput's cases 3 and 1; n is dim 3).
     */
    private static Template groupedMm(String op, String t, boolean experts) {
        Skel w = input("w", t, experts ? dims(2, 1, MERGED) : dims(1, MERGED));
        Skel y = output("z", t, experts ? dims(0, MERGED, 1) : dims(2, 0, MERGED, 1), experts ? 2 : 3);
        return new Template(op + (experts ? "_experts" : "_split_k"), List.of(input("x", t, dims(0, 1)), w,
                input("offs", "int32", dims(2)), y), List.of(new OpT(op, List.of("x", "w", "offs"), "z", "")));
    }

    /**
     * Experts with the weight first, so that a change shards the experts' columns: w [c, b, a] (a is N) and
     * x [m, b] with m the merged dim, offsets [c] splitting m -> [m, a, rb]; KEEP is nvFuser's column-parallel
     * grouped_mm (tests/python/multidevice/test_matmul.py:288), the reductions over b its row-parallel one (:329).
     */
    private static Template groupedMmColumns(String op, String t) {
        return new Template(op + "_columns", List.of(input("w", t, dims(2, 1, 0)), input("x", t, dims(MERGED, 1)),
                input("offs", "int32", dims(2)), output("z", t, dims(MERGED, 0, 1), 2)),
                List.of(new OpT(op, List.of("x", "w", "offs"), "z", "")));
    }

    static int[] dims(int... d) { return d; }

    private static Skel input(String name, String dtype, int[] dims) {
        return new Skel(name, dtype, dims, new boolean[dims.length], true);
    }

    private static Skel output(String name, String dtype, int[] dims, int reducedPosition) {
        boolean[] reduced = new boolean[dims.length];
        if (reducedPosition >= 0) reduced[reducedPosition] = true;
        return new Skel(name, dtype, dims, reduced, false);
    }

    /**
     * {@code first} feeding {@code then}: the output of a shape-keeping op over dims (0, 1) becomes the first input
     * of {@code then} (whose tensors are renamed apart), for the random fusions' chains.
     */
    static Template chain(Template first, Template then) {
        Skel mid = first.output();
        List<Skel> tensors = new ArrayList<>(first.tensors());
        Map<String, String> rename = new java.util.HashMap<>();
        String feed = then.input0().name();
        rename.put(feed, mid.name());
        for (Skel s : then.tensors()) {
            if (s.name().equals(feed)) continue;
            rename.put(s.name(), "t_" + s.name());
            tensors.add(s.renamed("t_" + s.name(), s.input()));
        }
        List<OpT> ops = new ArrayList<>(first.ops());
        for (OpT o : then.ops()) {
            ops.add(new OpT(o.op(), o.inputs().stream().map(rename::get).toList(), rename.get(o.output()),
                    o.attribute()));
        }
        return new Template(first.label() + "+" + then.label(), List.copyOf(tensors), List.copyOf(ops));
    }

    /** Whether a template keeps dims (0, 1) from its first input to its output, so a chain can follow it. */
    static boolean keepsShape(Template t) {
        boolean reduces = false;
        for (boolean r : t.output().reduced()) reduces |= r;
        return Arrays.equals(t.output().dims(), dims(0, 1)) && takesPlain(t) && !reduces
                && t.ops().size() == 1 && !t.ops().getFirst().attribute().contains("permute");
    }

    /** Whether a template's first input is a plain [a, b], so that a chain can feed it. */
    static boolean takesPlain(Template t) {
        return Arrays.equals(t.input0().dims(), dims(0, 1));
    }
}
