package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.property.SpaceGenerator.Layout;
import org.hostir.studio.tests.property.SpaceGenerator.Placement;
import org.hostir.studio.tests.property.SpaceTemplates.Skel;
import org.hostir.studio.tests.property.SpaceTemplates.Template;

/**
 * A template with its placements as a {@code .fusion} text: extents that fit the meshes (a DID axis the size of its
 * mesh along its type, or a multiple of it when the layout splits it), DID and Stream axes written on logical
 * axes or as loop steps ({@code outer_split}/{@code split} then {@code parallelize}, the last axis first so earlier
 * positions stay put), {@code hostir-fusion/2} when a tensor has loop steps or a 2-D mesh.
 */
final class SpaceRender {
    private SpaceRender() {}

    static SpaceCase render(Template tp, DataType dtype, String change, String meshKind, Layout layout,
                            Map<String, Placement> placements, int chunkDim, Map<String, String> options, long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 0x7F4A7C15L);
        int[] did = didSizes(tp, placements);
        int[] ext = new int[SpaceTemplates.MERGED + 1];
        int rows = layout == Layout.OUTER_SPLIT_ROWS || layout == Layout.INNER_SPLIT ? 2 : 1;
        for (int d = 0; d < ext.length; d++) {
            ext[d] = did[d] > 0 ? did[d] * (d == chunkDim ? chunkFactor(did[d]) : rows) : SpaceGenerator.plainExtent(r);
        }
        if (tp.ops().stream().anyMatch(o -> o.op().equals("reshape"))) ext[SpaceTemplates.MERGED] = ext[1] * ext[2];
        if (tp.label().endsWith("_long") && did[SpaceTemplates.MERGED] == 0) ext[SpaceTemplates.MERGED] = 16 + r.nextInt(8);
        // topk's k (c) within the axis it chooses from (b); scatter's rows (c) within self's (a)
        if (tp.label().startsWith("topk") && did[2] == 0) ext[2] = Math.min(ext[2], ext[1]);
        if (tp.label().startsWith("scatter") && did[2] == 0) ext[2] = Math.min(ext[2], ext[0]);
        boolean v2 = false;
        List<String> tensors = new ArrayList<>();
        int devices = 1;
        for (Skel s : tp.tensors()) {
            Placement p = placements.get(s.name());
            Tensor t = tensor(s, p, ext, did, layout, chunkDim);
            v2 |= t.v2();
            tensors.add(t.json());
            if (p.mesh() != null) {
                devices = Math.max(devices, p.mesh().stream().flatMap(List::stream).mapToInt(i -> i + 1).max().orElse(1));
            }
        }
        devices += seed % 6 == 5 ? 1 : 0; // now and then a device outside every mesh, idle
        String id = tp.label() + "-" + dtype.fileName() + "-" + change + "-" + meshKind + "-" + layout + "-" + seed;
        String text = text(v2, id, tp, tensors, devices, options);
        return new SpaceCase(id, tp.label(), dtype.fileName(), change, meshKind, layout.name(), devices,
                Map.copyOf(options), text, seed);
    }

    /** The chunk count of a Stream axis made by an outer split that is not the device count. */
    static int chunkFactor(int devices) { return devices + 1; }

    /** Per dim, the mesh size along the DID type some tensor shards it by (0: none); a conflict keeps the first. */
    private static int[] didSizes(Template tp, Map<String, Placement> placements) {
        int[] did = new int[SpaceTemplates.MERGED + 1];
        for (Skel s : tp.tensors()) {
            Placement p = placements.get(s.name());
            for (int d : s.dims()) {
                String type = d < 0 ? null : p.parallel().get(d);
                if (type == null || !type.startsWith("DID") || p.mesh() == null) continue;
                if (did[d] == 0) did[d] = along(p.mesh(), type);
            }
        }
        return did;
    }

    /** The mesh's extent along a DID type: DIDx the row length, DIDy the number of rows (nvFuser's DIDx last). */
    static int along(List<List<Integer>> mesh, String type) {
        return type.equals("DIDy") ? (mesh.size() > 1 ? mesh.size() : 0) : mesh.getFirst().size();
    }

    private record Tensor(String json, boolean v2) {}

    private static Tensor tensor(Skel s, Placement p, int[] ext, int[] did, Layout layout, int chunkDim) {
        List<String> logical = new ArrayList<>();
        List<String> parallelOnLogical = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        boolean split = false;
        for (int k = s.dims().length - 1; k >= 0; k--) {
            int d = s.dims()[k];
            String type = d < 0 || p.mesh() == null && !"Stream".equals(p.parallel().get(d)) ? null
                    : p.parallel().get(d);
            if (d < 0) {
                logical.addFirst("{\"iter\": \"broadcast\"}");
                parallelOnLogical.addFirst(null);
                continue;
            }
            String iter = s.reduced()[k] ? "reduction" : "iteration";
            logical.addFirst(axis(ext[d], iter, null));
            parallelOnLogical.addFirst(type);
            if (type == null) continue;
            int factor = factor(type, d, ext, did, layout, chunkDim, p.mesh());
            if (factor == 0) {
                steps.addFirst("{\"parallelize\": " + k + ", \"type\": \"" + type + "\"}");
            } else if (layout == Layout.INNER_SPLIT && type.startsWith("DID")) {
                split = true;
                steps.addFirst("{\"split\": " + k + ", \"factor\": " + factor + "}, {\"parallelize\": " + (k + 1)
                        + ", \"type\": \"" + type + "\"}");
            } else {
                split = true;
                steps.addFirst("{\"outer_split\": " + k + ", \"factor\": " + factor + "}, {\"parallelize\": " + k
                        + ", \"type\": \"" + type + "\"}");
            }
        }
        List<String> axes = new ArrayList<>();
        for (int k = 0; k < logical.size(); k++) {
            int d = s.dims()[k];
            axes.add(split || d < 0 ? logical.get(k)
                    : axis(ext[d], s.reduced()[k] ? "reduction" : "iteration", parallelOnLogical.get(k)));
        }
        List<String> order = new ArrayList<>(steps);
        java.util.Collections.reverse(order); // the last axis first
        String mesh = p.mesh() == null ? "" : ", \"mesh\": " + meshJson(p.mesh());
        String loop = split ? ", \"loop\": [" + String.join(", ", order) + "]" : "";
        boolean v2 = split || p.mesh() != null && p.mesh().size() > 1;
        return new Tensor("{\"name\": \"" + s.name() + "\", \"dtype\": \"" + s.dtype() + "\", \"axes\": "
                + String.join(", ", axes).transform(x -> "[" + x + "]") + mesh + loop + "}", v2);
    }

    /** The split factor of a parallel axis, or 0 where it stays on its logical axis. */
    private static int factor(String type, int d, int[] ext, int[] did, Layout layout, int chunkDim,
                              List<List<Integer>> mesh) {
        if (type.equals("Stream")) {
            if (d == chunkDim) return chunkFactor(did[d]);
            return did[d] > 0 && ext[d] != did[d] ? did[d] : 0;
        }
        int n = mesh == null ? 0 : along(mesh, type);
        if (n == 0) return 0;
        return layout == Layout.LOGICAL && ext[d] == n ? 0 : n;
    }

    private static String axis(int extent, String iter, String parallel) {
        if (iter.equals("iteration") && parallel == null) return Integer.toString(extent);
        return "{\"extent\": " + extent + (iter.equals("iteration") ? "" : ", \"iter\": \"" + iter + "\"")
                + (parallel == null ? "" : ", \"parallel\": \"" + parallel + "\"") + "}";
    }

    static String meshJson(List<List<Integer>> mesh) {
        String rows = mesh.stream().map(r -> r.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]")))
                .collect(Collectors.joining(", "));
        return mesh.size() == 1 ? rows : "[" + rows + "]";
    }

    private static String text(boolean v2, String id, Template tp, List<String> tensors, int devices,
                               Map<String, String> options) {
        List<String> inputs = tp.tensors().stream().filter(Skel::input).map(s -> "\"" + s.name() + "\"").toList();
        StringBuilder s = new StringBuilder("{\n  \"format\": \"hostir-fusion/" + (v2 ? 2 : 1) + "\",\n");
        s.append("  \"name\": \"").append(id.replaceAll("[^A-Za-z0-9_]", "_")).append("\",\n");
        s.append("  \"description\": \"generated ").append(id).append(", devices ").append(devices)
                .append(options.isEmpty() ? "" : ", options " + new java.util.TreeMap<>(options)).append("\",\n");
        s.append("  \"tensors\": [\n    ").append(String.join(",\n    ", tensors)).append("\n  ],\n");
        s.append("  \"ops\": [\n    ").append(tp.ops().stream().map(SpaceTemplates.OpT::json)
                .collect(Collectors.joining(",\n    "))).append("\n  ],\n");
        s.append("  \"inputs\": [").append(String.join(", ", inputs)).append("],\n");
        s.append("  \"outputs\": [\"").append(tp.output().name()).append("\"]\n}\n");
        return s.toString();
    }
}
