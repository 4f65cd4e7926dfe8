package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A generated fusion with its run: devices, tensors (axes with extent, iter type, parallel type; a mesh as a list of
 * device ids, or none), ops, inputs, outputs and lowering options. A parallel type {@code "Stream*"} is a Stream
 * axis made by {@code swizzle1d} (DIDx), {@code "Stream/F"} one on the outer part of {@code outer_split} by F: such a
 * tensor is written with loop steps, in a {@code hostir-fusion/2} file. Immutable; the shrinker derives smaller ones.
 * {@link #text()} is the {@code .fusion} file a user would write, so a failing case can be replayed with the CLI.
 */
record FusionSpec(long seed, int devices, List<Tensor> tensors, List<Op> ops, List<String> inputs,
                  List<String> outputs, Map<String, String> options) {

    record Axis(int extent, String iter, String parallel) {
        Axis withParallel(String p) { return new Axis(extent, iter, p); }

        Axis withExtent(int e) { return new Axis(e, iter, parallel); }

        String json() {
            if (iter.equals("iteration") && parallel.equals("Serial")) return Integer.toString(extent);
            StringBuilder s = new StringBuilder("{\"extent\": ").append(extent);
            if (!iter.equals("iteration")) s.append(", \"iter\": \"").append(iter).append('"');
            if (!parallel.equals("Serial")) s.append(", \"parallel\": \"").append(parallel).append('"');
            return s.append('}').toString();
        }
    }

    record Tensor(String name, List<Axis> axes, List<Integer> mesh) {
        Tensor withAxes(List<Axis> a) { return new Tensor(name, a, mesh); }

        Tensor withMesh(List<Integer> m) { return new Tensor(name, axes, m); }

        boolean swizzled() { return axes.stream().anyMatch(a -> a.parallel().equals(SWIZZLED_STREAM)); }

        boolean splitStream() { return axes.stream().anyMatch(a -> a.parallel().startsWith(SPLIT_STREAM)); }

        /** Written with loop steps (a hostir-fusion/2 file). */
        boolean scheduled() { return swizzled() || splitStream(); }

        String json() {
            List<Axis> logical = scheduled() ? axes.stream().map(x -> x.withParallel("Serial")).toList() : axes;
            String a = logical.stream().map(Axis::json).collect(Collectors.joining(", ", "[", "]"));
            String m = mesh == null ? "" : ", \"mesh\": " + mesh.stream().map(String::valueOf)
                    .collect(Collectors.joining(", ", "[", "]"));
            return "{\"name\": \"" + name + "\", \"dtype\": \"float\", \"axes\": " + a + m + loop() + "}";
        }

        /**
         * With a swizzled or split Stream axis, every parallel type as a loop step (loop.logical-parallel), the
         * last axis first so that a split leaves the positions of the axes before it as they are.
         */
        private String loop() {
            if (!scheduled()) return "";
            List<String> steps = new ArrayList<>();
            for (int k = axes.size() - 1; k >= 0; k--) {
                String p = axes.get(k).parallel();
                if (p.startsWith(SPLIT_STREAM)) {
                    steps.add("{\"outer_split\": " + k + ", \"factor\": " + p.substring(SPLIT_STREAM.length()) + "}");
                }
                if (p.equals(SWIZZLED_STREAM)) steps.add("{\"swizzle1d\": " + k + ", \"type\": \"DIDx\"}");
                if (!p.equals("Serial")) steps.add("{\"parallelize\": " + k + ", \"type\": \""
                        + (p.startsWith("Stream") ? "Stream" : p) + "\"}");
            }
            return ", \"loop\": [" + String.join(", ", steps) + "]";
        }
    }

    /** {@code attribute} is the op's extra JSON member ({@code "axes": [1]}, {@code "flags": [...]}) or empty. */
    record Op(String op, List<String> inputs, String output, String attribute) {
        String json() {
            String in = inputs.stream().map(i -> "\"" + i + "\"").collect(Collectors.joining(", ", "[", "]"));
            return "{\"op\": \"" + op + "\", \"inputs\": " + in + ", \"output\": \"" + output + "\""
                    + (attribute.isEmpty() ? "" : ", " + attribute) + "}";
        }
    }

    /** The parallel type of a Stream axis made by swizzle1d(DIDx). */
    static final String SWIZZLED_STREAM = "Stream*";

    /** The parallel type of a Stream axis on the outer part of outer_split by F: {@code "Stream/F"}. */
    static final String SPLIT_STREAM = "Stream/";

    String text() {
        String format = tensors.stream().anyMatch(Tensor::scheduled) ? "hostir-fusion/2" : "hostir-fusion/1";
        StringBuilder s = new StringBuilder("{\n  \"format\": \"" + format + "\",\n  \"name\": \"generated_")
                .append(Long.toHexString(seed)).append("\",\n  \"description\": \"devices ").append(devices)
                .append(options.isEmpty() ? "" : ", options " + new TreeMap<>(options)).append("\",\n  \"tensors\": [\n");
        s.append(tensors.stream().map(t -> "    " + t.json()).collect(Collectors.joining(",\n"))).append("\n  ],\n");
        s.append("  \"ops\": [\n").append(ops.stream().map(o -> "    " + o.json()).collect(Collectors.joining(",\n")))
                .append("\n  ],\n");
        s.append("  \"inputs\": ").append(names(inputs)).append(",\n  \"outputs\": ").append(names(outputs))
                .append("\n}\n");
        return s.toString();
    }

    private static String names(List<String> n) {
        return n.stream().map(x -> "\"" + x + "\"").collect(Collectors.joining(", ", "[", "]"));
    }

    FusionSpec withDevices(int d) { return new FusionSpec(seed, d, tensors, ops, inputs, outputs, options); }

    FusionSpec withOptions(Map<String, String> o) {
        return new FusionSpec(seed, devices, tensors, ops, inputs, outputs, Map.copyOf(o));
    }

    FusionSpec withTensors(List<Tensor> t) {
        return new FusionSpec(seed, devices, List.copyOf(t), ops, inputs, outputs, options);
    }

    FusionSpec mapTensor(int index, UnaryOperator<Tensor> f) {
        List<Tensor> t = new ArrayList<>(tensors);
        t.set(index, f.apply(t.get(index)));
        return withTensors(t);
    }

    int highestDevice() {
        return tensors.stream().filter(t -> t.mesh() != null).flatMap(t -> t.mesh().stream())
                .mapToInt(Integer::intValue).max().orElse(-1);
    }
}
