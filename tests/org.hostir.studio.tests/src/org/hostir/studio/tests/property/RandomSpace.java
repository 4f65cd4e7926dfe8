package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.property.SpaceGenerator.Layout;
import org.hostir.studio.tests.property.SpaceGenerator.MeshKind;
import org.hostir.studio.tests.property.SpaceGenerator.Placement;
import org.hostir.studio.tests.property.SpaceTemplates.Skel;
import org.hostir.studio.tests.property.SpaceTemplates.Template;

/**
 * Seeded random fusions on top of the enumerated space: any template ({@link SpaceTemplates}), half the time
 * after a shape-keeping op (a chain of two), at any dtype, each tensor placed at random (DIDx, and DIDy on 2-D
 * meshes, on any of its axes, reduction axes included; Stream on computed tensors; another mesh of the same shape
 * now and then), any mesh kind and layout, and up to two lowering option settings. A seed gives the same fusion.
 */
final class RandomSpace {
    private RandomSpace() {}

    static SpaceCase generate(long seed) {
        Random r = new Random(seed * 0x2545F4914F6CDD1DL + 0x6A09E667F3BCC909L);
        DataType[] dtypes = DataType.values();
        DataType dtype = r.nextInt(2) == 0 ? DataType.FLOAT : dtypes[r.nextInt(dtypes.length)];
        Template tp = pick(r, templates(dtype, null));
        if (r.nextBoolean() && SpaceTemplates.takesPlain(tp)) {
            List<Template> before = templates(dtype, tp.input0().dtype()).stream().filter(SpaceTemplates::keepsShape)
                    .toList();
            if (!before.isEmpty()) tp = SpaceTemplates.chain(pick(r, before), tp);
        }
        MeshKind[] kinds = MeshKind.values();
        MeshKind mk = kinds[r.nextInt(kinds.length)];
        List<List<Integer>> a = mk.rows(1 + r.nextInt(4));
        List<List<Integer>> b = shifted(a, r);
        Map<String, Placement> placements = new HashMap<>();
        for (Skel s : tp.tensors()) placements.put(s.name(), place(r, s, a, b));
        Layout layout = SpaceGenerator.LAYOUT_TURN.get(r.nextInt(SpaceGenerator.LAYOUT_TURN.size()));
        int chunk = r.nextInt(4) == 0 ? streamed(placements.get(tp.output().name()), tp.output()) : -1;
        return SpaceRender.render(tp, dtype, "RANDOM", mk.name(), layout, placements, chunk, options(r), seed);
    }

    /** Templates whose first input is of {@code dtype} and, if given, whose output is of {@code out}. */
    private static List<Template> templates(DataType dtype, String out) {
        List<Template> all = new ArrayList<>();
        for (OpKind k : OpKind.values()) {
            for (Template t : SpaceTemplates.of(k, dtype)) {
                if (out == null || t.output().dtype().equals(out)) all.add(t);
            }
        }
        return all;
    }

    private static <T> T pick(Random r, List<T> from) { return from.get(r.nextInt(from.size())); }

    /** The same devices moved past this mesh's highest, or this mesh again. */
    private static List<List<Integer>> shifted(List<List<Integer>> a, Random r) {
        if (r.nextBoolean()) return a;
        int top = a.stream().flatMap(List::stream).mapToInt(Integer::intValue).max().orElse(0) + 1;
        return a.stream().map(row -> row.stream().map(d -> d + top).toList()).toList();
    }

    private static Placement place(Random r, Skel s, List<List<Integer>> a, List<List<Integer>> b) {
        List<List<Integer>> mesh = !s.input() && r.nextInt(4) == 0 ? b : a;
        Map<Integer, String> p = new HashMap<>();
        List<Integer> dims = new ArrayList<>();
        for (int d : s.dims()) if (d >= 0) dims.add(d);
        if (dims.isEmpty()) return new Placement(mesh, p);
        if (r.nextBoolean()) p.put(pick(r, dims), "DIDx");
        if (mesh.size() > 1 && r.nextBoolean()) p.putIfAbsent(pick(r, dims), "DIDy");
        if (!s.input() && r.nextInt(10) < 3) {
            List<Integer> free = new ArrayList<>();
            for (int k = 0; k < s.dims().length; k++) {
                if (s.dims()[k] >= 0 && !s.reduced()[k] && !p.containsKey(s.dims()[k])) free.add(s.dims()[k]);
            }
            if (!free.isEmpty()) p.put(pick(r, free), "Stream");
        }
        return new Placement(mesh, p);
    }

    /** The output's Stream dim, to put on chunks of an outer split, or -1. */
    private static int streamed(Placement p, Skel out) {
        for (int d : out.dims()) if (d >= 0 && "Stream".equals(p.parallel().get(d))) return d;
        return -1;
    }

    private static Map<String, String> options(Random r) {
        List<Map<String, String>> settings = SpaceGenerator.optionSettings();
        Map<String, String> o = new HashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) o.putAll(pick(r, settings));
        return Map.copyOf(o);
    }
}
