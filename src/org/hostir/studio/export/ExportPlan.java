package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * What both exports say about a fusion, derived once: a variable name per tensor (the file's label where the
 * target language allows it), the meshes (the all-devices mesh first, as {@code mesh}), the parallelized axes in
 * tensor then axis order (the seeds' tests' order), and each input's unsharded shape from the bound symbols.
 */
final class ExportPlan {
    record Parallelized(TensorView tensor, int axis, ParallelType type) {}

    final Fusion fusion;
    final int devices;
    final Map<String, Long> symbols;
    private final Map<Integer, String> names = new LinkedHashMap<>();
    final Map<DeviceMesh, String> meshes = new LinkedHashMap<>();
    final List<Parallelized> parallelized = new ArrayList<>();

    ExportPlan(Fusion fusion, int devices, Map<String, Long> symbols, Set<String> reserved) {
        this.fusion = fusion;
        this.devices = devices;
        this.symbols = Map.copyOf(symbols);
        Set<String> used = new HashSet<>(reserved);
        for (TensorView t : fusion.tensors()) {
            String label = t.label();
            String name = usable(label) && !used.contains(label) ? label : "tv" + t.id();
            while (!used.add(name)) name = name + "_";
            names.put(t.id(), name);
        }
        for (TensorView t : fusion.tensors()) {
            if (t.mesh() != null && !meshes.containsKey(t.mesh())) {
                String mesh = isAllDevices(t.mesh()) && !meshes.containsValue("mesh") ? "mesh" : "mesh" + meshes.size();
                // "mesh" is reserved; "mesh1" may be a tensor's name
                while (!mesh.equals("mesh") && !used.add(mesh)) mesh = mesh + "_";
                meshes.put(t.mesh(), mesh);
            }
            // a scheduled tensor's parallel types are on its loop axes (LoopCalls), not its logical ones
            for (int i = 0; i < t.rank() && t.loop() == null; i++) {
                if (t.axis(i).parallelType() != ParallelType.SERIAL) {
                    parallelized.add(new Parallelized(t, i, t.axis(i).parallelType()));
                }
            }
        }
    }

    /**
     * What an exporter does not write yet, refused rather than exported wrong: 2-D meshes, and loop transforms
     * where it has no {@link LoopCalls} (a split-sharded tensor would be exported as a logical DIDx axis of the
     * full extent, another fusion).
     */
    void checkExportable(boolean loopCalls) throws ExportException {
        for (TensorView t : fusion.tensors()) {
            if (t.loop() != null && !loopCalls) {
                throw new ExportException(t.subject(), Texts.quote(t.label()) + " is scheduled by loop transforms (hostir-fusion/2:"
                        + " split, merge, reorder); the export writes shardings of logical axes only, not yet loop"
                        + " splits");
            }
            if (t.mesh() != null && t.mesh().rank() > 1) {
                throw new ExportException(new Subject.Mesh(t.subject()), "the mesh of " + Texts.quote(t.label())
                        + " is 2-D; the export writes 1-D meshes only");
            }
        }
    }

    String name(TensorView t) { return names.get(t.id()); }

    /**
     * Whether a tensor's label can be its variable's name: an ASCII identifier, not one C++ reserves to the
     * implementation ({@code __} anywhere, {@code _} and a capital first: macros such as {@code __LINE__}), and not
     * {@code t_...}, the prefix of the exports' input tensors ({@code t_a} for {@code a}).
     */
    private static boolean usable(String label) {
        return label.matches("[A-Za-z_][A-Za-z0-9_]*") && !label.contains("__") && !label.matches("_[A-Z].*")
                && !label.startsWith("t_");
    }

    boolean isAllDevices(DeviceMesh mesh) { return mesh.size() == devices && MeshLookup.isIdentity(mesh); }

    /** The extent of an axis as a number: a constant, or the symbol's bound value. */
    long extent(TensorView t, int i) throws ExportException {
        IterDomain axis = t.allocationAxes().get(i);
        return switch (axis.extent()) {
            case Extent.Constant c -> c.value();
            case Extent.Symbolic s -> {
                Long v = symbols.get(s.name());
                if (v == null) throw new ExportException(axisSubject(t, axis), "symbol " + Texts.quote(s.name()) + " has no value: give it one (--set)");
                yield v;
            }
        };
    }

    /** The file's axis {@code axis} of {@code t}, else the tensor (an axis the file does not list). */
    private static Subject axisSubject(TensorView t, IterDomain axis) {
        int at = t.axes().indexOf(axis);
        return at >= 0 ? new Subject.Axis(t.subject(), at) : t.subject();
    }

    /** The shape of an input as the unsharded tensor a test feeds (reduction axes have no extent in it). */
    List<Long> shape(TensorView input) throws ExportException {
        List<Long> out = new ArrayList<>();
        List<IterDomain> axes = input.allocationAxes();
        for (int i = 0; i < axes.size(); i++) out.add(axes.get(i).isBroadcast() ? 1 : extent(input, i));
        return out;
    }

    /** The input's DIDx axis position in that tensor, or -1. */
    static int shardedAxis(TensorView input) {
        List<IterDomain> axes = input.allocationAxes();
        for (int i = 0; i < axes.size(); i++) {
            if (axes.get(i).isDeviceDim()) return i;
        }
        return -1;
    }
}
