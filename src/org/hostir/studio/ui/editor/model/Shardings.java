package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ShardingReport;
import org.hostir.studio.engine.ShardingReport.AxisSharding;
import org.hostir.studio.engine.ShardingReport.Origin;
import org.hostir.studio.engine.ShardingReport.TensorSharding;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.ParallelType;

/**
 * A document's shardings after nvFuser's propagation ({@link org.hostir.studio.engine.Engine#shardings}), by the
 * file's tensor names, as the editor shows them (badges, tooltips, Properties), and the two edits between written and
 * inferred (issue 34): making a tensor's inferred sharding explicit in the file, and clearing what is written on a
 * tensor so that propagation infers it. A tensor with a mesh is the user's: nvFuser's propagation leaves it as it is
 * (propagate_shardings.cpp:118-125 at 81c4b22fd), so both edits act on a whole tensor, mesh and axes together.
 */
public record Shardings(Map<String, TensorSharding> byName) {
    public static final Shardings NONE = new Shardings(Map.of());

    public Shardings {
        byName = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    /** The report's tensors by the document's names (a report's tensor id is its index in the file). */
    public static Shardings of(FusionDocument doc, ShardingReport report) {
        Map<String, TensorSharding> out = new LinkedHashMap<>();
        for (TensorSharding t : report.tensors()) {
            if (t.id() >= 0 && t.id() < doc.tensors().size()) out.put(doc.tensors().get(t.id()).name(), t);
        }
        return new Shardings(out);
    }

    public TensorSharding get(String tensor) { return byName.get(tensor); }

    /** Whether propagation inferred any of {@code tensor}'s sharding (its mesh or an axis). */
    public boolean hasInferred(String tensor) {
        TensorSharding t = byName.get(tensor);
        return t != null && (t.meshOrigin() == Origin.INFERRED
                || t.axes().stream().anyMatch(a -> a.origin() == Origin.INFERRED));
    }

    /** Whether {@code tensor} has a sharding written in the file (a mesh, or a parallel type on an axis). */
    public static boolean hasWritten(TensorSpec t) {
        return !(t.mesh() instanceof MeshSpec.Absent) || t.axes().stream().anyMatch(a -> a.parallel() != ParallelType.SERIAL)
                || t.loop().stream().anyMatch(s -> s instanceof LoopStep.Parallelize);
    }

    // ------------------------------------------------------------------------------------------------ texts

    /** {@code DIDx}, {@code DIDx (outer split by 2)} or {@code Serial}. */
    public static String typeText(AxisSharding a) {
        return a.type().fileName() + (a.split() > 0 ? " (outer split by " + a.split() + ")" : "");
    }

    /** An axis as Properties and the tooltip say it: {@code DIDx (outer split by 2), inferred from w (T1) through linear}. */
    public static String axisText(AxisSharding a) {
        return typeText(a) + ", " + originText(a.origin(), a.provenance());
    }

    /** A mesh as Properties and the tooltip say it: {@code {0 1}, inferred from x (T0) through linear}. */
    public static String meshText(TensorSharding t) {
        return (t.mesh() == null ? "none" : meshIds(t.mesh())) + ", " + originText(t.meshOrigin(), t.meshProvenance());
    }

    private static String originText(Origin o, String provenance) {
        return switch (o) {
            case WRITTEN -> "written";
            case INFERRED -> "inferred " + provenance;
            case UNSTATED -> "unstated";
        };
    }

    private static String meshIds(DeviceMesh m) {
        return "{" + String.join(" ", m.deviceIds().stream().map(String::valueOf).toList()) + "}";
    }

    /** The tooltip's lines under the tensor's own: its mesh, then each parallel axis. */
    public static List<String> tooltipLines(TensorSharding t) {
        List<String> out = new ArrayList<>();
        out.add("mesh " + meshText(t));
        for (AxisSharding a : t.axes()) {
            if (a.type() == ParallelType.SERIAL) continue;
            out.add("axis " + a.axis() + " " + axisText(a));
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ edits

    /**
     * {@code doc} with {@code tensor}'s inferred sharding written into the file: its mesh (spelled as the written
     * tensor with the same devices spells it, so {@code all} stays {@code all}), and each inferred axis's parallel
     * type, on the logical axis or as nvFuser's device split ({@code outer_split(i, D); parallelize(i, DIDx)}).
     * Unchanged when nothing of it is inferred.
     */
    public FusionDocument makeExplicit(FusionDocument doc, String tensor) {
        TensorSharding s = byName.get(tensor);
        TensorSpec t = doc.tensor(tensor).orElse(null);
        if (s == null || t == null || !hasInferred(tensor)) return doc;
        MeshSpec mesh = t.mesh() instanceof MeshSpec.Absent && s.mesh() != null ? spelled(doc, s.mesh()) : t.mesh();
        List<AxisSpec> axes = new ArrayList<>(t.axes());
        List<LoopStep> loop = new ArrayList<>(t.loop());
        for (AxisSharding a : s.axes()) {
            if (a.origin() != Origin.INFERRED || a.axis() >= axes.size()) continue;
            AxisSpec was = axes.get(a.axis());
            if (a.split() == 0) {
                axes.set(a.axis(), new AxisSpec(was.extent(), was.iter(), a.type()));
                continue;
            }
            int at = loopPosition(t.axes().size(), loop, a.axis());
            if (at < 0) continue;
            loop.add(new LoopStep.Split(at, factor(mesh, s.mesh(), a), false));
            loop.add(new LoopStep.Parallelize(at, a.type()));
        }
        TensorSpec made = new TensorSpec(t.name(), t.dtype(), t.memory(), axes, mesh, loop, t.allocationIsLoop());
        return FusionEdits.setTensor(doc, made);
    }

    /**
     * {@code doc} with what is written of {@code tensor}'s sharding cleared, so that propagation infers it: no mesh,
     * every axis Serial, and the device splits ({@code outer_split} then {@code parallelize} of its outer part) and
     * parallelize steps removed; its other loop steps stay.
     */
    public static FusionDocument clearToInferred(FusionDocument doc, String tensor) {
        TensorSpec t = doc.tensor(tensor).orElse(null);
        if (t == null || !hasWritten(t)) return doc;
        List<AxisSpec> axes = t.axes().stream().map(a -> new AxisSpec(a.extent(), a.iter(), ParallelType.SERIAL)).toList();
        List<LoopStep> loop = new ArrayList<>();
        List<LoopStep> steps = t.loop();
        for (int i = 0; i < steps.size(); i++) {
            LoopStep s = steps.get(i);
            boolean deviceSplit = s instanceof LoopStep.Split(int at, var f, boolean inner) && !inner && i + 1 < steps.size()
                    && steps.get(i + 1) instanceof LoopStep.Parallelize(int p, var type) && p == at;
            if (deviceSplit) {
                i++;   // the split and the parallelize of its outer part: nvFuser's device split
            } else if (!(s instanceof LoopStep.Parallelize)) {
                loop.add(s);
            }
        }
        TensorSpec cleared = new TensorSpec(t.name(), t.dtype(), t.memory(), axes, MeshSpec.ABSENT, loop,
                t.allocationIsLoop());
        return FusionEdits.setTensor(doc, cleared);
    }

    /** The file's spelling of {@code mesh}: a written tensor's with the same devices, else its device ids. */
    private MeshSpec spelled(FusionDocument doc, DeviceMesh mesh) {
        for (TensorSpec t : doc.tensors()) {
            TensorSharding s = byName.get(t.name());
            if (!(t.mesh() instanceof MeshSpec.Absent) && s != null && mesh.equals(s.mesh())) return t.mesh();
        }
        return mesh.rank() > 1 ? new MeshSpec.Devices(mesh.deviceIds(), mesh.shape()) : new MeshSpec.Devices(mesh.deviceIds());
    }

    /** A device split's factor: {@code D} on a mesh of every device split along its only axis, else the number. */
    private static ExtentSpec factor(MeshSpec spelled, DeviceMesh mesh, AxisSharding a) {
        boolean all = spelled instanceof MeshSpec.AllDevices && mesh != null && mesh.rank() == 1 && mesh.size() == a.split();
        return all ? ExtentSpec.symbol("D") : ExtentSpec.size(a.split());
    }

    /**
     * The loop position of logical axis {@code axis} after {@code steps}, while no step has transformed it
     * (propagation gives a sharding only to such an axis, propagation.cpp:327-335), else -1.
     */
    static int loopPosition(int rank, List<LoopStep> steps, int axis) {
        List<Integer> loop = new ArrayList<>();   // each loop axis's logical axis, or -1 once transformed
        for (int i = 0; i < rank; i++) loop.add(i);
        for (LoopStep s : steps) {
            int n = loop.size();
            switch (s) {
                case LoopStep.Split x -> {
                    if (x.axis() < n) {
                        loop.set(x.axis(), -1);
                        loop.add(x.axis() + 1, -1);
                    }
                }
                case LoopStep.Merge m -> {
                    if (m.axis() + 1 < n) {
                        loop.remove(m.axis() + 1);
                        loop.set(m.axis(), -1);
                    }
                }
                case LoopStep.Reorder r -> {
                    if (r.order().size() == n && r.order().stream().allMatch(i -> i >= 0 && i < n)) {
                        List<Integer> old = List.copyOf(loop);
                        for (int i = 0; i < n; i++) loop.set(i, old.get(r.order().get(i)));
                    }
                }
                case LoopStep.Swizzle1D z -> { if (z.axis() < n) loop.set(z.axis(), -1); }
                case LoopStep.Parallelize p -> { }
            }
        }
        return loop.indexOf(axis);
    }
}
