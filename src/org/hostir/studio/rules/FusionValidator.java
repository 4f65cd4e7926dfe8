package org.hostir.studio.rules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * Validates a fusion (DESIGN 2.2, step 1): the dataflow graph, meshes and parallel types of every tensor, and
 * shapes and dtypes through every op. Works on the IR, so lowering can validate fusions built in memory too;
 * the locator turns IR elements back into file positions when the fusion came from a file.
 */
public final class FusionValidator {
    private FusionValidator() {}

    /** Every problem, sorted by line (rule order within a line); empty when the fusion is valid. */
    public static List<Diagnostic> validate(Fusion fusion, FusionBindings bindings, FusionLocator locator) {
        return validate(fusion, List.of(), bindings, locator);
    }

    /**
     * As {@link #validate(Fusion, FusionBindings, FusionLocator)}, also checking {@code moreTensors} (a file's
     * tensors that no op or output uses, which the IR does not reach).
     */
    public static List<Diagnostic> validate(Fusion fusion, List<TensorView> moreTensors, FusionBindings bindings,
                                            FusionLocator locator) {
        return validate(fusion, moreTensors, bindings, locator, Set.of());
    }

    /**
     * A fusion as written, before sharding propagation: as above, except that a tensor an op reaches may leave its
     * mesh unstated in a fusion where some tensor has one (the lowering's first pass infers it; Validate then
     * checks the result with every rule).
     */
    public static List<Diagnostic> validateWritten(Fusion fusion, List<TensorView> moreTensors,
                                                   FusionBindings bindings, FusionLocator locator) {
        Set<Integer> reached = new HashSet<>();
        fusion.tensors().forEach(t -> reached.add(t.id()));
        return validate(fusion, moreTensors, bindings, locator, reached);
    }

    private static List<Diagnostic> validate(Fusion fusion, List<TensorView> moreTensors, FusionBindings bindings,
                                             FusionLocator locator, Set<Integer> inferable) {
        ValidationContext cx = new ValidationContext(locator, bindings);
        new GraphRules(cx, fusion).check();
        Map<Integer, TensorView> tensors = new LinkedHashMap<>();
        fusion.tensors().forEach(t -> tensors.putIfAbsent(t.id(), t));
        moreTensors.forEach(t -> tensors.putIfAbsent(t.id(), t));
        List<TensorView> ordered = new ArrayList<>(tensors.values());
        ordered.sort(Comparator.comparingInt(TensorView::id));
        new MeshRules(cx, fusion.ops()).check(ordered, inferable);
        new MeshRules(cx, fusion.ops()).checkPipelinedAllgathers(fusion.ops());
        new ShapeRules(cx, ShapeRules.inputSymbols(fusion)).check(fusion.ops());
        List<Diagnostic> out = new ArrayList<>(cx.diagnostics);
        out.sort(Comparator.comparingInt(Diagnostic::line));
        return out;
    }

    /** Throws the diagnostics, if any. */
    public static void check(Fusion fusion, FusionBindings bindings, FusionLocator locator)
            throws FusionFileException {
        List<Diagnostic> d = validate(fusion, bindings, locator);
        if (!d.isEmpty()) throw new FusionFileException(d);
    }
}
