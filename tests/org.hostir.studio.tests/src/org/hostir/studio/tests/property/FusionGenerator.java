package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.hostir.studio.tests.property.FusionSpec.Axis;
import org.hostir.studio.tests.property.FusionSpec.Op;
import org.hostir.studio.tests.property.FusionSpec.Tensor;

/**
 * Random valid fusions over the supported ops (set, add, sum, matmul, broadcast and chains of them), meshes (the
 * run's devices in order, permuted, or a part of them), DIDx and Stream placements and lowering options, for 1 to 8
 * devices. "Valid" means well formed: shapes agree and a DIDx axis has its mesh's size; whether nvFuser's lowering
 * accepts the placement is for check and lowering to say. A seed gives the same fusion every time.
 */
final class FusionGenerator {
    /** A tensor of a template: its name, whether it is a fusion input, and its axes as dimension ids (-1: broadcast). */
    private record Shape(String name, boolean input, int[] dims, boolean[] reduced) {}

    private record Template(List<Shape> shapes, List<Op> ops, List<String> inputs, List<String> outputs, int dims) {}

    private FusionGenerator() {}

    static FusionSpec generate(long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L); // consecutive seeds far apart
        int devices = 1 + r.nextInt(8);
        Template t = template(r);
        boolean noMesh = devices == 1 && r.nextInt(3) == 0;
        List<Integer> meshA = mesh(r, devices);
        List<Integer> meshB = r.nextInt(3) == 0 ? meshA : mesh(r, devices);
        List<List<Integer>> meshes = new ArrayList<>();
        List<String[]> parallel = new ArrayList<>();
        for (Shape s : t.shapes()) {
            List<Integer> m = noMesh ? null : (s.input() || r.nextInt(5) < 3 ? meshA : meshB);
            meshes.add(m);
            parallel.add(placement(r, s, m != null));
        }
        int[] extents = extents(r, t, meshes, parallel);
        List<Tensor> tensors = new ArrayList<>();
        for (int i = 0; i < t.shapes().size(); i++) {
            Shape s = t.shapes().get(i);
            List<Axis> axes = new ArrayList<>();
            for (int k = 0; k < s.dims().length; k++) {
                int d = s.dims()[k];
                String iter = d < 0 ? "broadcast" : s.reduced()[k] ? "reduction" : "iteration";
                axes.add(new Axis(d < 0 ? 1 : extents[d], iter, parallel.get(i)[k]));
            }
            tensors.add(new Tensor(s.name(), List.copyOf(axes), meshes.get(i) == null ? null : meshes.get(i)));
        }
        swizzle(seed, tensors);
        splitStream(seed, tensors);
        return new FusionSpec(seed, devices, List.copyOf(tensors), t.ops(), t.inputs(), t.outputs(), options(r));
    }

    /**
     * Now and then a computed tensor's Stream axis becomes a swizzled one (swizzle1d by DIDx), where its extent is
     * its mesh's size (loop.swizzle-extent): the CollectivePermute allgather and loops over swizzled slices. A
     * Random of its own, so the fusions generated before swizzles existed stay as they were.
     */
    private static void swizzle(long seed, List<Tensor> tensors) {
        Random r = new Random(seed * 0x2545F4914F6CDD1DL + 0x1B873593L);
        for (int i = 0; i < tensors.size(); i++) {
            Tensor t = tensors.get(i);
            if (t.mesh() == null || r.nextInt(3) != 0) continue;
            List<Axis> axes = new ArrayList<>(t.axes());
            for (int k = 0; k < axes.size(); k++) {
                Axis a = axes.get(k);
                if (a.parallel().equals("Stream") && a.iter().equals("iteration") && a.extent() == t.mesh().size()) {
                    axes.set(k, a.withParallel(FusionSpec.SWIZZLED_STREAM));
                }
            }
            tensors.set(i, t.withAxes(List.copyOf(axes)));
        }
    }

    /**
     * Now and then a computed tensor's plain Stream axis goes on the outer part of an outer_split by a factor that
     * divides its extent (nvFuser's outer_split then Stream): loops over chunks. A Random of its own, so the
     * fusions generated before split Stream axes existed stay as they were.
     */
    private static void splitStream(long seed, List<Tensor> tensors) {
        Random r = new Random(seed * 0x5851F42D4C957F2DL + 0x14057B7EF767814FL);
        for (int i = 0; i < tensors.size(); i++) {
            Tensor t = tensors.get(i);
            if (r.nextInt(4) != 0) continue;
            List<Axis> axes = new ArrayList<>(t.axes());
            for (int k = 0; k < axes.size(); k++) {
                Axis a = axes.get(k);
                if (!a.parallel().equals("Stream") || !a.iter().equals("iteration")) continue;
                List<Integer> factors = new ArrayList<>();
                for (int f = 1; f <= a.extent(); f++) if (a.extent() % f == 0) factors.add(f);
                int factor = factors.get(r.nextInt(factors.size()));
                axes.set(k, a.withParallel(FusionSpec.SPLIT_STREAM + factor));
            }
            tensors.set(i, t.withAxes(List.copyOf(axes)));
        }
    }

    /** All devices in order, a permutation of them, or a part of them in any order. */
    private static List<Integer> mesh(Random r, int devices) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < devices; i++) all.add(i);
        int kind = r.nextInt(3);
        if (kind == 0) return List.copyOf(all);
        Collections.shuffle(all, r);
        return List.copyOf(kind == 1 ? all : all.subList(0, 1 + r.nextInt(devices)));
    }

    /** Per axis: Serial, DIDx (at most one, on a meshed tensor) or Stream (mostly on computed tensors). */
    private static String[] placement(Random r, Shape s, boolean meshed) {
        int n = s.dims().length;
        String[] p = new String[n];
        Arrays.fill(p, "Serial");
        List<Integer> iteration = new ArrayList<>();
        List<Integer> reduction = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (s.dims()[k] < 0) continue;
            (s.reduced()[k] ? reduction : iteration).add(k);
        }
        if (meshed && !iteration.isEmpty() && r.nextInt(2) == 0) p[pick(r, iteration)] = "DIDx";
        boolean stream = s.input() ? r.nextInt(25) == 0 : r.nextInt(100) < 40;
        List<Integer> free = iteration.stream().filter(k -> p[k].equals("Serial")).toList();
        if (stream && !free.isEmpty()) p[pick(r, free)] = "Stream";
        if (!reduction.isEmpty() && r.nextInt(25) == 0) p[pick(r, reduction)] = "Stream";
        return p;
    }

    private static int pick(Random r, List<Integer> from) { return from.get(r.nextInt(from.size())); }

    /** A dimension sharded by some tensor takes that tensor's mesh size; a conflicting shard becomes Serial. */
    private static int[] extents(Random r, Template t, List<List<Integer>> meshes, List<String[]> parallel) {
        int[] extents = new int[t.dims()];
        Map<Integer, Integer> sharded = new HashMap<>();
        for (int i = 0; i < t.shapes().size(); i++) {
            int[] dims = t.shapes().get(i).dims();
            for (int k = 0; k < dims.length; k++) {
                if (!parallel.get(i)[k].equals("DIDx")) continue;
                int size = meshes.get(i).size();
                Integer prior = sharded.putIfAbsent(dims[k], size);
                if (prior != null && prior != size) parallel.get(i)[k] = "Serial";
            }
        }
        for (int d = 0; d < extents.length; d++) {
            extents[d] = sharded.containsKey(d) ? sharded.get(d) : 1 + r.nextInt(r.nextInt(4) == 0 ? 6 : 4);
        }
        return extents;
    }

    private static Map<String, String> options(Random r) {
        Map<String, String> o = new HashMap<>();
        if (r.nextInt(3) == 0) o.put("numberOfStreams", Integer.toString(1 + r.nextInt(3)));
        if (r.nextInt(2) == 0) o.put("allgather", List.of("p2p", "broadcast", "collective").get(r.nextInt(3)));
        if (r.nextInt(4) == 0) o.put("offsetStreamIndexingByRank", "true");
        if (r.nextInt(4) == 0) o.put("insertDeallocations", Boolean.toString(r.nextBoolean()));
        if (r.nextInt(4) == 0) o.put("forwardLocalShard", "true");
        if (r.nextInt(10) == 0) o.put("backend", "cuda");
        return Map.copyOf(o);
    }

    private static Template template(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> chain(List.of(in("x", 0, 1), out("y", 0, 1)), List.of(op("set", "y", "", "x")));
            case 1 -> chain(List.of(in("x", 0, 1), in("w", 0, 1), out("z", 0, 1)),
                    List.of(op("add", "z", "", "x", "w")));
            case 2 -> sum(r.nextInt(3));
            case 3 -> chain(List.of(in("a", 0, 1), in("b", 1, 2), reducedOut("c", new int[] {0, 2, 1}, 2)),
                    List.of(op("matmul", "c", "", "a", "b")));
            case 4 -> chain(List.of(in("x", 0, 1, 2), reducedOut("y", new int[] {0, 1, 2}, 0), out("z", 1, 2)),
                    List.of(op("sum", "y", "\"axes\": [0]", "x"), op("set", "z", "", "y")));
            case 5 -> chain(List.of(in("x", 0, 1), out("y", 0, 1), out("z", 0, 1)),
                    List.of(op("set", "y", "", "x"), op("add", "z", "", "y", "y")));
            case 6 -> r.nextBoolean()
                    ? chain(List.of(in("x", 0, 1), out("y", 0, 1, -1)),
                            List.of(op("broadcast", "y", "\"flags\": [false, false, true]", "x")))
                    : chain(List.of(in("x", 0, 1), out("y", -1, 0, 1)),
                            List.of(op("broadcast", "y", "\"flags\": [true, false, false]", "x")));
            default -> chain(List.of(in("x", 0, 1), out("y", 0, 1), out("z", 0, 1)),
                    List.of(op("set", "y", "", "x"), op("set", "z", "", "y")));
        };
    }

    private static Template sum(int axis) {
        return chain(List.of(in("x", 0, 1, 2), reducedOut("y", new int[] {0, 1, 2}, axis)),
                List.of(op("sum", "y", "\"axes\": [" + axis + "]", "x")));
    }

    private static Shape in(String name, int... dims) { return new Shape(name, true, dims, new boolean[dims.length]); }

    private static Shape out(String name, int... dims) {
        return new Shape(name, false, dims, new boolean[dims.length]);
    }

    private static Shape reducedOut(String name, int[] dims, int reducedAxis) {
        boolean[] reduced = new boolean[dims.length];
        reduced[reducedAxis] = true;
        return new Shape(name, false, dims, reduced);
    }

    private static Op op(String op, String output, String attribute, String... inputs) {
        return new Op(op, List.of(inputs), output, attribute);
    }

    /** The last tensor is the output; every input shape is a fusion input. */
    private static Template chain(List<Shape> shapes, List<Op> ops) {
        int dims = shapes.stream().flatMapToInt(s -> Arrays.stream(s.dims())).max().orElse(0) + 1;
        List<String> inputs = shapes.stream().filter(Shape::input).map(Shape::name).toList();
        return new Template(shapes, ops, inputs, List.of(shapes.getLast().name()), dims);
    }
}
