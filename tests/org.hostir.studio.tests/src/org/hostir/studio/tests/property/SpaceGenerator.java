package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.OptionType;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.property.SpaceTemplates.Template;

/**
 * The space of fusions, enumerated rather than sampled from examples (issue 30, deliverable 2): every file op
 * ({@link OpKind}) at every dtype ({@link DataType}) under every kind of sharding change ({@link Change}), on
 * meshes in order, reordered, non-contiguous, not starting at 0 and 2-D ({@link MeshKind}), with logical,
 * outer-split (one and several rows per device) and inner-split DID axes ({@link Layout}), under every value of
 * every declared lowering option ({@link #optionSettings()}, from {@link LoweringOptions#DECLARED}). Three lists
 * make {@link #all()}: (1) op x dtype x change, mesh, layout and options turning round; (2) the core ops x change
 * x mesh x layout; (3) the core ops x change x every option value. {@link RandomSpace} adds seeded random chains.
 * The whole list is a function of nothing but the declarations: the same every run.
 */
final class SpaceGenerator {
    /** The kinds of sharding change an op's output may make from its inputs (nvFuser's communications). */
    enum Change {
        /** no mesh at all, one device */
        NO_MESH,
        /** meshed, nothing sharded */
        LOCAL,
        /** the same axis DIDx in and out */
        KEEP,
        /** Serial in, DIDx out: Scatter or a local slice */
        GAIN,
        /** DIDx in, Serial out: Allgather */
        LOSS,
        /** DIDx on one axis in, another out: AllToAll */
        MOVE,
        /** DIDx in and out on another mesh of one size: SendRecv */
        MESH_MOVE,
        /** DIDx in, Serial on one device: Gather */
        GATHER_TO_ONE,
        /** Serial on one device, DIDx out: Scatter */
        SCATTER_FROM_ONE,
        /** DIDx in, Stream out on the same axis: the pipelined allgather */
        STREAM,
        /** DIDx in, Stream out on chunks of an outer split by M != D */
        STREAM_CHUNKS,
        /** a reduction over the DIDx axis, its reduction axis Serial: Allreduce */
        REDUCE,
        /** a reduction over the DIDx axis whose reduction axis stays DIDx (nvFuser's propagated form) */
        REDUCE_DID,
        /** a reduction over the DIDx axis, a kept axis DIDx out: ReduceScatter */
        REDUCE_SCATTER,
        /** a reduction over the DIDx axis onto one device: Reduce */
        REDUCE_TO_ONE,
        /** 2-D: DIDy and DIDx in, DIDy lost: Allgather within a column */
        DIDY_GATHER,
        /** 2-D: DIDy and DIDx in, DIDx lost, DIDy kept: Allgather of the later axis within a row */
        DIDY_LATER_GATHER,
        /** 2-D: DIDy and DIDx kept */
        DIDY_KEEP,
        /** 2-D: DIDy kept, a reduction over the DIDx axis: Allreduce within a row */
        DIDY_REDUCE;

        boolean twoD() { return name().startsWith("DIDY"); }

        boolean applies(Template t) {
            return switch (this) {
                case NO_MESH, LOCAL -> true;
                case KEEP, GAIN, LOSS, MESH_MOVE, GATHER_TO_ONE, SCATTER_FROM_ONE, STREAM, STREAM_CHUNKS -> t.first() >= 0;
                case MOVE, DIDY_GATHER, DIDY_LATER_GATHER, DIDY_KEEP -> t.second() >= 0;
                case REDUCE, REDUCE_DID, REDUCE_SCATTER, REDUCE_TO_ONE -> t.reduced() >= 0 && t.first() >= 0;
                case DIDY_REDUCE -> t.reduced() >= 0 && t.first() >= 0;
            };
        }
    }

    /** How a DID axis is written: on a logical axis, or on the outer (1 or 2 rows per device) or inner split part. */
    enum Layout { LOGICAL, OUTER_SPLIT, OUTER_SPLIT_ROWS, INNER_SPLIT }

    /** Mesh shapes; the 1-D ones take a size. */
    enum MeshKind {
        IN_ORDER, REORDERED, NONCONTIGUOUS, OFFSET, GRID, GRID_REORDERED, GRID_WIDE, GRID_OFFSET, GRID_TALL;

        boolean twoD() { return ordinal() >= GRID.ordinal(); }

        /** The mesh's rows (one row for a 1-D mesh). */
        List<List<Integer>> rows(int size) {
            return switch (this) {
                case IN_ORDER -> List.of(range(0, size, 1));
                case REORDERED -> List.of(reordered(size));
                case NONCONTIGUOUS -> List.of(range(0, size, 2));
                case OFFSET -> List.of(range(1, size, 1));
                case GRID -> List.of(List.of(0, 1), List.of(2, 3));
                case GRID_REORDERED -> List.of(List.of(3, 1), List.of(2, 0));
                case GRID_WIDE -> List.of(List.of(0, 1, 2), List.of(3, 4, 5));
                case GRID_OFFSET -> List.of(List.of(1, 2), List.of(3, 4));
                case GRID_TALL -> List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5));
            };
        }
    }

    static final List<MeshKind> ONE_D_CHANGE_MESHES = List.of(MeshKind.IN_ORDER, MeshKind.REORDERED,
            MeshKind.NONCONTIGUOUS, MeshKind.OFFSET, MeshKind.GRID, MeshKind.GRID_WIDE);
    static final List<MeshKind> TWO_D_MESHES = List.of(MeshKind.GRID, MeshKind.GRID_REORDERED, MeshKind.GRID_WIDE,
            MeshKind.GRID_OFFSET, MeshKind.GRID_TALL);
    /**
     * The layouts list (1) turns through: the inner split, which nvFuser refuses for DID ("we don't support DID on
     * inner splits") and so does check, once in eight, as list (2) has it for every change and mesh.
     */
    static final List<Layout> LAYOUT_TURN = List.of(Layout.LOGICAL, Layout.OUTER_SPLIT, Layout.OUTER_SPLIT_ROWS,
            Layout.LOGICAL, Layout.OUTER_SPLIT_ROWS, Layout.OUTER_SPLIT, Layout.LOGICAL, Layout.INNER_SPLIT);
    /** The ops lists (2) and (3) cross with everything: a move, a pointwise op, a reduction, a GEMM, a permute. */
    static final List<String> CORE = List.of("set", "set_permute", "add", "sum_axis0", "matmul", "linear_bias");

    private SpaceGenerator() {}

    static List<Integer> range(int start, int size, int step) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < size; i++) r.add(start + i * step);
        return List.copyOf(r);
    }

    /** 0..size-1 reversed, then its first two swapped: {1, 0}, {1, 2, 0}, {2, 3, 1, 0}. */
    static List<Integer> reordered(int size) {
        List<Integer> r = new ArrayList<>(range(size - 1, size, -1));
        if (size > 2) java.util.Collections.swap(r, 0, 1);
        return List.copyOf(r);
    }

    /** Every lowering option's every value besides its default, one setting each, after the all-defaults one. */
    static List<Map<String, String>> optionSettings() {
        List<Map<String, String>> all = new ArrayList<>();
        all.add(Map.of());
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            if (!SeedGeneration.varied(o.key())) continue;
            for (String v : values(o)) {
                if (!v.equals(o.formattedDefault())) all.add(Map.of(o.key(), v));
            }
        }
        return List.copyOf(all);
    }

    private static List<String> values(LoweringOption<?> o) {
        return switch (o.type()) {
            case OptionType.IntRange r -> new TreeSet<>(List.of(r.min(), Math.min(r.max(), r.min() + 1),
                    Math.min(r.max(), r.min() + 2), r.max())).stream().map(String::valueOf).toList();
            case OptionType.Choice<?> c -> c.spellings();
            case OptionType.Flag f -> List.of("true", "false");
        };
    }

    /** The whole enumerated space, lists (1), (2) and (3) in order. */
    static List<SpaceCase> all() {
        List<SpaceCase> out = new ArrayList<>();
        List<Map<String, String>> options = optionSettings();
        int i = 0;
        for (OpKind k : OpKind.values()) {
            for (DataType t : DataType.values()) {
                for (Template tp : SpaceTemplates.of(k, t)) {
                    for (Change c : Change.values()) {
                        if (!c.applies(tp)) continue;
                        List<MeshKind> meshes = c.twoD() ? TWO_D_MESHES : ONE_D_CHANGE_MESHES;
                        out.add(make(tp, t, c, meshes.get(i % meshes.size()), LAYOUT_TURN.get(i / 7 % LAYOUT_TURN.size()),
                                options.get(i % options.size()), i));
                        i++;
                    }
                }
            }
        }
        for (Template tp : core()) {
            for (Change c : Change.values()) {
                if (!c.applies(tp)) continue;
                for (MeshKind m : c.twoD() ? TWO_D_MESHES : ONE_D_CHANGE_MESHES) {
                    for (Layout l : Layout.values()) out.add(make(tp, DataType.FLOAT, c, m, l, Map.of(), i++));
                }
                for (Map<String, String> o : options) {
                    out.add(make(tp, DataType.FLOAT, c, c.twoD() ? MeshKind.GRID : MeshKind.IN_ORDER, Layout.LOGICAL,
                            o, i++));
                }
            }
        }
        return List.copyOf(out);
    }

    /** Every {@code stride}-th case of {@link #all()} from {@code offset}: CI's sample. */
    static List<SpaceCase> sample(int stride, int offset) {
        List<SpaceCase> all = all();
        List<SpaceCase> s = new ArrayList<>();
        for (int i = offset % stride; i < all.size(); i += stride) s.add(all.get(i));
        return List.copyOf(s);
    }

    private static List<Template> core() {
        List<Template> all = new ArrayList<>();
        for (OpKind k : OpKind.values()) {
            for (Template t : SpaceTemplates.of(k, DataType.FLOAT)) if (CORE.contains(t.label())) all.add(t);
        }
        return all;
    }

    /** One case: the change's placements on the template, on a mesh of the kind, with extents from the seed. */
    static SpaceCase make(Template tp, DataType dtype, Change c, MeshKind mk, Layout layout, Map<String, String> opt,
                          long seed) {
        int size = mk.twoD() ? 0 : (seed % 11 == 0 ? 1 : 2 + (int) (seed % 3));
        List<List<Integer>> a = mk.rows(size);
        List<List<Integer>> b = other(a, seed);
        Map<String, Placement> placements = new LinkedHashMap<>();
        for (SpaceTemplates.Skel s : tp.tensors()) placements.put(s.name(), placement(tp, s, c, a, b));
        return SpaceRender.render(tp, dtype, c.name(), mk.name(), layout, placements, chunked(c, tp), opt, seed);
    }

    /** Another mesh of the same shape for a SendRecv: the next devices after this one's, or this one reversed. */
    private static List<List<Integer>> other(List<List<Integer>> a, long seed) {
        int top = a.stream().flatMap(List::stream).mapToInt(Integer::intValue).max().orElse(0) + 1;
        List<List<Integer>> b = new ArrayList<>();
        for (List<Integer> row : a) {
            List<Integer> r = new ArrayList<>();
            for (int d : row) r.add(seed % 2 == 0 ? d + top : d);
            if (seed % 2 != 0) java.util.Collections.reverse(r);
            b.add(List.copyOf(r));
        }
        return List.copyOf(b);
    }

    /** Where a tensor is and which of its dims are parallel (dim id to DIDx, DIDy or Stream). */
    record Placement(List<List<Integer>> mesh, Map<Integer, String> parallel) {}

    private static Placement placement(Template tp, SpaceTemplates.Skel s, Change c, List<List<Integer>> a,
                                       List<List<Integer>> b) {
        boolean out = !s.input();
        Map<Integer, String> p = new HashMap<>();
        List<List<Integer>> mesh = a;
        int first = tp.first();
        int second = tp.second();
        int red = tp.reduced();
        switch (c) {
            case NO_MESH -> mesh = null;
            case LOCAL -> { }
            case KEEP -> p.put(first, "DIDx");
            case GAIN -> { if (out) p.put(first, "DIDx"); }
            case LOSS -> { if (!out) p.put(first, "DIDx"); }
            case MOVE -> p.put(out ? second : first, "DIDx");
            case MESH_MOVE -> {
                p.put(first, "DIDx");
                if (out) mesh = b;
            }
            case GATHER_TO_ONE -> {
                if (out) mesh = List.of(List.of(a.getFirst().getFirst()));
                else p.put(first, "DIDx");
            }
            case SCATTER_FROM_ONE -> {
                if (out) p.put(first, "DIDx");
                else mesh = List.of(List.of(a.getFirst().getFirst()));
            }
            case STREAM, STREAM_CHUNKS -> p.put(first, out ? "Stream" : "DIDx");
            case REDUCE -> { if (!out) p.put(red, "DIDx"); }
            case REDUCE_DID -> p.put(red, "DIDx");
            case REDUCE_SCATTER -> p.put(out ? first : red, "DIDx");
            case REDUCE_TO_ONE -> {
                if (out) mesh = List.of(List.of(a.getFirst().getFirst()));
                else p.put(red, "DIDx");
            }
            case DIDY_GATHER -> {
                p.put(second, "DIDx");
                if (!out) p.put(first, "DIDy");
            }
            case DIDY_LATER_GATHER -> {
                p.put(first, "DIDy");
                if (!out) p.put(second, "DIDx");
            }
            case DIDY_KEEP -> {
                p.put(first, "DIDy");
                p.put(second, "DIDx");
            }
            case DIDY_REDUCE -> {
                p.put(first, "DIDy");
                if (!out) p.put(red, "DIDx");
            }
        }
        return new Placement(mesh, p);
    }

    /** The dim whose Stream axis goes on chunks of an outer split by M != D, for STREAM_CHUNKS; else -1. */
    private static int chunked(Change c, Template tp) { return c == Change.STREAM_CHUNKS ? tp.first() : -1; }

    /** Extents for dims that nothing shards: 1 to 3, now and then up to 5. */
    static int plainExtent(Random r) { return r.nextInt(5) == 0 ? 1 + r.nextInt(5) : 1 + r.nextInt(3); }
}
