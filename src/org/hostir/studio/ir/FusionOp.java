package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The operations of a fusion. They also run as standalone host ops in Host IR (nvFuser evaluates Set, Unary, Binary,
 * Reduction, Matmul and Linear on the host), so the same records appear in both IRs.
 */
public sealed interface FusionOp {

    TensorView output();

    List<TensorView> inputs();

    /** The op's name in fusion files and diagnostics. */
    String opName();

    /**
     * The same op (type and attributes) over other tensors: {@code inputs} in the order of {@link #inputs()}. How
     * passes rewire ops, the structural comparison renumbers them and the error bounds compute them in float.
     */
    FusionOp withTensors(TensorView output, List<TensorView> inputs);

    /** The same op with every tensor, output and inputs, replaced by {@code f}'s. */
    default FusionOp mapTensors(UnaryOperator<TensorView> f) {
        return withTensors(f.apply(output()), inputs().stream().map(f).toList());
    }

    /** LoadStoreOp Set; a non-empty permutation makes it Set.Permute (output axis i = input axis perm[i]). */
    record Set(TensorView output, TensorView input, List<Integer> permutation) implements FusionOp {
        public Set {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            permutation = List.copyOf(permutation);
        }

        public Set(TensorView output, TensorView input) { this(output, input, List.of()); }

        public boolean isPermute() { return !permutation.isEmpty(); }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return "set"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Set(output, inputs.get(0), permutation);
        }
    }

    record Binary(BinaryOpType op, TensorView output, TensorView lhs, TensorView rhs) implements FusionOp {
        public Binary {
            Objects.requireNonNull(op);
            Objects.requireNonNull(output);
            Objects.requireNonNull(lhs);
            Objects.requireNonNull(rhs);
        }

        public List<TensorView> inputs() { return List.of(lhs, rhs); }

        public String opName() { return op.fileName(); }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Binary(op, output, inputs.get(0), inputs.get(1));
        }
    }

    /**
     * UnaryOp: a pointwise unary op, or a cast (UnaryOpType::Cast) to the output's dtype. The output has the
     * input's shape.
     */
    record Unary(UnaryOpType op, TensorView output, TensorView input) implements FusionOp {
        public Unary {
            Objects.requireNonNull(op);
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return op.fileName(); }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Unary(op, output, inputs.get(0));
        }
    }

    /**
     * TernaryOp where: {@code condition ? x : y} elementwise; the three operands broadcast as a binary op's do
     * (equal extents, or a broadcast axis of extent 1).
     */
    record Where(TensorView output, TensorView condition, TensorView x, TensorView y) implements FusionOp {
        public Where {
            Objects.requireNonNull(output);
            Objects.requireNonNull(condition);
            Objects.requireNonNull(x);
            Objects.requireNonNull(y);
        }

        public List<TensorView> inputs() { return List.of(condition, x, y); }

        public String opName() { return "where"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Where(output, inputs.get(0), inputs.get(1), inputs.get(2));
        }
    }

    /** SqueezeOp: {@code flags[i]} says whether input axis i (a broadcast axis, or extent 1) is removed. */
    record Squeeze(TensorView output, TensorView input, List<Boolean> flags) implements FusionOp {
        public Squeeze {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            flags = List.copyOf(flags);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return "squeeze"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Squeeze(output, inputs.get(0), flags);
        }
    }

    /** ExpandOp: the input's broadcast axes (extent 1) take the output's extents; the other axes keep theirs. */
    record Expand(TensorView output, TensorView input) implements FusionOp {
        public Expand {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return "expand"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Expand(output, inputs.get(0));
        }
    }

    /**
     * ReshapeOp (the former ViewOp): the input's elements in order, in the output's shape; the output's axes give
     * the new extents. Axes kept whole are found by {@link ReshapeAxes}.
     */
    record Reshape(TensorView output, TensorView input) implements FusionOp {
        public Reshape {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return "reshape"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Reshape(output, inputs.get(0));
        }
    }

    /** A reduction over {@code axes} (input axis positions); the output keeps them as reduction axes. */
    record Reduction(ReductionOpType op, TensorView output, TensorView input, List<Integer> axes) implements FusionOp {
        public Reduction {
            Objects.requireNonNull(op);
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            axes = List.copyOf(axes);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return op.fileName(); }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Reduction(op, output, inputs.get(0), axes);
        }
    }

    /** Broadcast: {@code flags[i]} says whether output axis i is a new broadcast axis. */
    record Broadcast(TensorView output, TensorView input, List<Boolean> flags) implements FusionOp {
        public Broadcast {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            flags = List.copyOf(flags);
        }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return "broadcast"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Broadcast(output, inputs.get(0), flags);
        }
    }

    /** {@code at::matmul} semantics: 2-D and batched. */
    record Matmul(TensorView output, TensorView a, TensorView b) implements FusionOp {
        public Matmul {
            Objects.requireNonNull(output);
            Objects.requireNonNull(a);
            Objects.requireNonNull(b);
        }

        public List<TensorView> inputs() { return List.of(a, b); }

        public String opName() { return "matmul"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Matmul(output, inputs.get(0), inputs.get(1));
        }
    }

    /** {@code at::linear}: input [.., K], weight [N, K], optional bias [N]. */
    record Linear(TensorView output, TensorView input, TensorView weight, TensorView bias) implements FusionOp {
        public Linear {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            Objects.requireNonNull(weight);
        }

        public List<TensorView> inputs() {
            List<TensorView> in = new ArrayList<>(List.of(input, weight));
            if (bias != null) in.add(bias);
            return List.copyOf(in);
        }

        public String opName() { return "linear"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Linear(output, inputs.get(0), inputs.get(1), inputs.size() > 2 ? inputs.get(2) : null);
        }
    }
    /**
     * IndexSelectOp ({@code at::index_select}; csrc/ops/indexing.cpp:51 at 81c4b22fd): output axis {@code dim} has
     * the 1-D {@code indices}' extent and holds {@code input}'s rows {@code indices[i]} along {@code dim}; the other
     * axes are the input's. {@code axes} is the file's {@code "axes": [dim]}, one position (the shape rule says so).
     */
    record IndexSelect(TensorView output, TensorView input, TensorView indices, List<Integer> axes)
            implements FusionOp {
        public IndexSelect {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            Objects.requireNonNull(indices);
            axes = List.copyOf(axes);
        }

        public IndexSelect(TensorView output, TensorView input, TensorView indices, int dim) {
            this(output, input, indices, List.of(dim));
        }

        /** The selected input axis (the first of {@link #axes}; -1 when there is none). */
        public int dim() { return axes.isEmpty() ? -1 : axes.get(0); }

        public List<TensorView> inputs() { return List.of(input, indices); }

        public String opName() { return "index_select"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new IndexSelect(output, inputs.get(0), inputs.get(1), axes);
        }
    }
    /**
     * GatherOp with exact sizes, {@code take_along_axis} ({@code takeAlongAxis(inp, index, dim)},
     * csrc/ops/indexing.cpp:306-369 at 81c4b22fd): {@code indices} has the input's rank and its extents but along
     * {@code dim}; output element {@code [.., j, ..]} is input element {@code [.., indices[.., j, ..], ..]}.
     * {@code axes} is the file's {@code "axes": [dim]}.
     */
    record TakeAlongAxis(TensorView output, TensorView input, TensorView indices, List<Integer> axes)
            implements FusionOp {
        public TakeAlongAxis {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            Objects.requireNonNull(indices);
            axes = List.copyOf(axes);
        }

        public TakeAlongAxis(TensorView output, TensorView input, TensorView indices, int dim) {
            this(output, input, indices, List.of(dim));
        }

        /** The gathered input axis (the first of {@link #axes}; -1 when there is none). */
        public int dim() { return axes.isEmpty() ? -1 : axes.get(0); }

        public List<TensorView> inputs() { return List.of(input, indices); }

        public String opName() { return "take_along_axis"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new TakeAlongAxis(output, inputs.get(0), inputs.get(1), axes);
        }
    }
    /**
     * One output of TopKOp ({@code topk(inp, k, dim, largest, sorted)}, csrc/ops/arith.cpp:2497-2584 and
     * csrc/ir/composite_nodes.cpp:796-855 at 81c4b22fd; {@code at::topk}): the values ({@code indices == false}, the
     * input's dtype) or the int64 indices of the k largest (or smallest) elements along {@code dim}; each output is
     * the input's shape with axis {@code dim} of extent k, and k is that extent (nvFuser's resize of the root axis
     * to k, arith.cpp:2535-2560), so the file declares it once. nvFuser's op has both outputs; the Studio's ops
     * have one each, so a file writes {@code topk} and {@code topk_indices}, one op per output over the same
     * input and attributes. {@code axes} is {@code [dim]}, {@code flags} is {@code [largest, sorted]}.
     */
    record TopK(TensorView output, TensorView input, List<Integer> axes, List<Boolean> flags, boolean indices)
            implements FusionOp {
        public TopK {
            Objects.requireNonNull(output);
            Objects.requireNonNull(input);
            axes = List.copyOf(axes);
            flags = List.copyOf(flags);
        }

        /** The axis topk runs along (the first of {@link #axes}; -1 when there is none). */
        public int dim() { return axes.isEmpty() ? -1 : axes.get(0); }

        /** at::topk's {@code largest} (flags[0], true when absent). */
        public boolean largest() { return flags.isEmpty() || flags.get(0); }

        /** at::topk's {@code sorted} (flags[1], true when absent, as PyTorch's default). */
        public boolean sorted() { return flags.size() < 2 || flags.get(1); }

        public List<TensorView> inputs() { return List.of(input); }

        public String opName() { return indices ? "topk_indices" : "topk"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new TopK(output, inputs.get(0), axes, flags, indices);
        }
    }
    /**
     * ScatterOp without accumulation ({@code scatter(self, dim, index, src)}, csrc/ops/indexing.cpp:197-303 at
     * 81c4b22fd; {@code at::scatter}, out of place): the output is {@code self} with element {@code [.., index[.., j,
     * ..], ..]} along {@code dim} replaced by {@code src[.., j, ..]}; self, index and src have one rank, the output
     * self's shape and dtype. {@code axes} is {@code [dim]}.
     */
    record Scatter(TensorView output, TensorView self, TensorView indices, TensorView src, List<Integer> axes)
            implements FusionOp {
        public Scatter {
            Objects.requireNonNull(output);
            Objects.requireNonNull(self);
            Objects.requireNonNull(indices);
            Objects.requireNonNull(src);
            axes = List.copyOf(axes);
        }

        /** The scattered axis (the first of {@link #axes}; -1 when there is none). */
        public int dim() { return axes.isEmpty() ? -1 : axes.get(0); }

        public List<TensorView> inputs() { return List.of(self, indices, src); }

        public String opName() { return "scatter"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new Scatter(output, inputs.get(0), inputs.get(1), inputs.get(2), axes);
        }
    }
    /**
     * GroupedMmaOp without scales, alpha or bias ({@code grouped_mm(mat1, mat2, offsets)}, csrc/ops/arith.cpp:2279-2489
     * and its fallback csrc/ir/composite_nodes.cpp:1166-1220 at 81c4b22fd): {@code offsets} holds the int32 end of
     * each of g groups; [m, k] x [k, n] splits K into [g, m, n], [g, m, k] x [k, n] splits N into [m, n], and
     * [m, k] x [g, k, n] splits M into [m, n] (one expert's rows per group, an MoE layer's experts).
     */
    record GroupedMm(TensorView output, TensorView a, TensorView b, TensorView offsets) implements FusionOp {
        public GroupedMm {
            Objects.requireNonNull(output);
            Objects.requireNonNull(a);
            Objects.requireNonNull(b);
            Objects.requireNonNull(offsets);
        }

        public List<TensorView> inputs() { return List.of(a, b, offsets); }

        public String opName() { return "grouped_mm"; }

        public FusionOp withTensors(TensorView output, List<TensorView> inputs) {
            return new GroupedMm(output, inputs.get(0), inputs.get(1), inputs.get(2));
        }
    }
}
