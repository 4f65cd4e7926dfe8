package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.hostir.studio.tests.property.FusionSpec.Axis;
import org.hostir.studio.tests.property.FusionSpec.Tensor;

/**
 * Makes a failing case smaller while it fails the same way: fewer devices, options back to their defaults, axes back
 * to Serial, smaller extents, smaller meshes, one mesh for all. Greedy: the first smaller case that still fails is
 * kept and the search starts again from it.
 */
final class Shrinker {
    private static final int MAX_TRIES = 300;

    private Shrinker() {}

    static FusionSpec shrink(FusionSpec failing, Outcome.Kind kind) {
        FusionSpec current = failing;
        int tries = 0;
        boolean progress = true;
        while (progress && tries < MAX_TRIES) {
            progress = false;
            for (FusionSpec candidate : candidates(current)) {
                if (++tries > MAX_TRIES) break;
                if (Outcome.of(candidate).kind() == kind) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }

    static List<FusionSpec> candidates(FusionSpec s) {
        List<FusionSpec> out = new ArrayList<>();
        if (s.devices() > 1 && s.highestDevice() < s.devices() - 1) out.add(s.withDevices(s.devices() - 1));
        for (String key : new TreeSet<>(s.options().keySet())) {
            Map<String, String> fewer = new HashMap<>(s.options());
            fewer.remove(key);
            out.add(s.withOptions(fewer));
        }
        for (int t = 0; t < s.tensors().size(); t++) {
            List<Axis> axes = s.tensors().get(t).axes();
            for (int k = 0; k < axes.size(); k++) {
                if (axes.get(k).parallel().equals("Serial")) continue;
                int axis = k;
                out.add(s.mapTensor(t, x -> x.withAxes(replace(x.axes(), axis, x.axes().get(axis).withParallel("Serial")))));
            }
        }
        out.addAll(smallerExtents(s));
        out.addAll(smallerMeshes(s));
        return out;
    }

    /** Every axis of extent e becomes e - 1 (a dimension is shared by the tensors of an op). */
    private static List<FusionSpec> smallerExtents(FusionSpec s) {
        TreeSet<Integer> values = new TreeSet<>();
        s.tensors().forEach(t -> t.axes().forEach(a -> values.add(a.extent())));
        List<FusionSpec> out = new ArrayList<>();
        for (int e : values.descendingSet()) {
            if (e <= 1) continue;
            List<Tensor> ts = s.tensors().stream().map(t -> t.withAxes(t.axes().stream()
                    .map(a -> a.extent() == e ? a.withExtent(e - 1) : a).toList())).toList();
            out.add(s.withTensors(ts));
        }
        return out;
    }

    /**
     * One mesh for every tensor (the first tensor's), the highest device dropped from every mesh (then fewer devices
     * follow), or a tensor without a DIDx axis on one device fewer.
     */
    private static List<FusionSpec> smallerMeshes(FusionSpec s) {
        List<FusionSpec> out = new ArrayList<>();
        List<Integer> first = s.tensors().getFirst().mesh();
        if (first != null && s.tensors().stream().anyMatch(t -> !first.equals(t.mesh()))) {
            out.add(s.withTensors(s.tensors().stream().map(t -> t.withMesh(first)).toList()));
        }
        int highest = s.highestDevice();
        if (highest > 0 && s.tensors().stream().allMatch(t -> t.mesh() == null || t.mesh().size() > 1
                || !t.mesh().contains(highest))) {
            out.add(s.withTensors(s.tensors().stream().map(t -> t.mesh() == null ? t : t.withMesh(
                    t.mesh().stream().filter(d -> d != highest).toList())).toList()));
        }
        for (int t = 0; t < s.tensors().size(); t++) {
            Tensor x = s.tensors().get(t);
            if (x.mesh() == null || x.mesh().size() < 2) continue;
            if (x.axes().stream().anyMatch(a -> a.parallel().equals("DIDx"))) continue;
            out.add(s.mapTensor(t, y -> y.withMesh(y.mesh().subList(0, y.mesh().size() - 1))));
        }
        return out;
    }

    private static List<Axis> replace(List<Axis> axes, int k, Axis a) {
        List<Axis> copy = new ArrayList<>(axes);
        copy.set(k, a);
        return List.copyOf(copy);
    }
}
