package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;
import org.hostir.studio.rules.InferredSharding;
import org.hostir.studio.rules.ShardingPropagation;

/**
 * A fusion's shardings after propagation as a front end shows them ({@link Engine#shardings}): per tensor its mesh
 * and per logical axis its parallel type, each written (in the file, or the whole tensor written with a mesh, which
 * nvFuser's propagation leaves alone), inferred (with where it came from) or unstated (nothing reached it: Serial);
 * then every inferred sharding in the order propagation made it, and the conflicts as located diagnostics
 * (propagation's own, then the rules the propagated fusion breaks, as Validate will report them).
 */
public record ShardingReport(List<TensorSharding> tensors, List<InferredSharding> inferred,
                             List<Diagnostic> diagnostics) {
    public ShardingReport {
        tensors = List.copyOf(tensors);
        inferred = List.copyOf(inferred);
        diagnostics = List.copyOf(diagnostics);
    }

    /** Where a mesh or an axis's parallel type comes from. */
    public enum Origin { WRITTEN, INFERRED, UNSTATED }

    /**
     * One logical axis: its parallel type after propagation ({@code split}: the factor of the outer split whose
     * outer part carries it, 0 for the axis itself) and its origin; {@code provenance} is empty unless inferred.
     */
    public record AxisSharding(int axis, ParallelType type, long split, Origin origin, String provenance) {}

    /** One tensor (its id is its index in the file): mesh, its origin and provenance, and its axes. */
    public record TensorSharding(int id, String label, DeviceMesh mesh, Origin meshOrigin, String meshProvenance,
                                 List<AxisSharding> axes) {
        public TensorSharding {
            axes = List.copyOf(axes);
        }
    }

    /** A document that does not load: its diagnostics, nothing else. */
    static ShardingReport refused(List<Diagnostic> diagnostics) {
        return new ShardingReport(List.of(), List.of(), diagnostics);
    }

    /**
     * {@code loaded} is what {@code FusionLoader.load} gave: validated, propagated without conflict. Its propagated
     * fusion is validated again only where the loader's check was the one of a fusion as written (propagation changed
     * nothing), which lets a tensor the ops reach leave its mesh unstated: the report names that tensor. Elsewhere
     * the loader's check covered every rule this one applies (issue 35: validating a 1,000-op fusion twice was most
     * of the report's time, on the editor's UI thread).
     */
    static ShardingReport of(LoadedFusion loaded) {
        boolean validated = loaded.fusion() != loaded.written()
                || loaded.written().tensors().stream().allMatch(t -> t.mesh() != null);
        return of(loaded.written(), loaded.bindings(), loaded.locator(), !validated);
    }

    static ShardingReport of(Fusion fusion) {
        int devices = FusionBindings.DEFAULT_DEVICES;
        for (TensorView t : fusion.tensors()) {
            if (t.mesh() != null) for (int d : t.mesh().deviceIds()) devices = Math.max(devices, d + 1);
        }
        return of(fusion, FusionBindings.devices(devices), FusionLocator.inMemory(fusion.name()), true);
    }

    private static ShardingReport of(Fusion written, FusionBindings bindings, FusionLocator locator, boolean validate) {
        ShardingPropagation.Result r = ShardingPropagation.propagate(written);
        List<Diagnostic> diagnostics = new ArrayList<>();
        for (ShardingPropagation.Conflict c : r.conflicts()) diagnostics.add(c.diagnostic(locator));
        if (diagnostics.isEmpty() && validate) diagnostics.addAll(FusionValidator.validate(r.fusion(), bindings, locator));
        // by id, once: looked up per tensor and axis, they made a 1,000-op fusion's report quadratic (issue 35)
        Map<Integer, TensorView> propagated = new HashMap<>();
        for (TensorView t : r.fusion().tensors()) propagated.put(t.id(), t);
        Map<List<Integer>, InferredSharding> inferred = new HashMap<>();
        for (InferredSharding s : r.inferred()) inferred.putIfAbsent(List.of(s.tensor().id(), s.axis()), s);
        List<TensorSharding> tensors = new ArrayList<>();
        for (TensorView before : written.tensors()) {
            TensorView after = Optional.ofNullable(propagated.get(before.id())).orElseThrow();
            tensors.add(tensor(before, after, inferred));
        }
        return new ShardingReport(tensors, r.inferred(), diagnostics);
    }

    private static TensorSharding tensor(TensorView before, TensorView after,
            Map<List<Integer>, InferredSharding> inferred) {
        boolean userSharded = before.mesh() != null;
        Optional<InferredSharding> mesh = find(inferred, after.id(), InferredSharding.MESH);
        Origin meshOrigin = userSharded ? Origin.WRITTEN : mesh.isPresent() ? Origin.INFERRED : Origin.UNSTATED;
        List<AxisSharding> axes = new ArrayList<>();
        for (int i = 0; i < after.rank(); i++) {
            Optional<InferredSharding> axis = find(inferred, after.id(), i);
            Origin o = axis.isPresent() ? Origin.INFERRED
                    : userSharded || before.axis(i).parallelType() != ParallelType.SERIAL ? Origin.WRITTEN
                    : Origin.UNSTATED;
            axes.add(new AxisSharding(i, after.axis(i).parallelType(), splitFactor(after, i), o,
                    axis.map(InferredSharding::provenance).orElse("")));
        }
        return new TensorSharding(after.id(), after.label(), after.mesh(), meshOrigin,
                mesh.map(InferredSharding::provenance).orElse(""), axes);
    }

    /** The first sharding propagation inferred for a tensor's axis (or mesh), as {@code inferred} indexes them. */
    private static Optional<InferredSharding> find(Map<List<Integer>, InferredSharding> inferred, int tensor, int axis) {
        return Optional.ofNullable(inferred.get(List.of(tensor, axis)));
    }

    /** The factor of the outer split of logical axis {@code i} whose outer part is parallel, or 0. */
    private static long splitFactor(TensorView t, int i) {
        LoopDomain loop = t.loopDomain();
        for (int p = 0; p < loop.loop().size(); p++) {
            LoopDomain.Axis a = loop.loop().get(p);
            LoopDomain.Source src = loop.source(p);
            if (a.parallelType() != ParallelType.SERIAL && src.logicalPosition() == i
                    && src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT
                    && a.extent() instanceof Extent.Constant(long f)) {
                return f;
            }
        }
        return 0;
    }

    /** {@code check}'s lines: each inferred sharding with its provenance, in the order propagation made them. */
    public List<String> lines() { return inferred.stream().map(InferredSharding::text).toList(); }
}
