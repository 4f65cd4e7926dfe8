package org.hostir.studio.file;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.FusionBindings;

/**
 * A fusion file read, converted and validated: the document, the IR, every tensor of the file in file order
 * ({@code tensors.get(i)} is {@code T<i>}), the bindings it was instantiated with and its locator. {@code written}
 * is the IR as the file states it; {@code fusion} is the same unless the file leaves meshes unstated, when it is
 * the fusion with them inferred ({@link #withInferred}), which runs, budgets and exports read; the lowering starts
 * from {@code written}, its first pass (PropagateShardings) inferring the same, so the Lowering view shows it.
 */
public record LoadedFusion(ParsedFusion source, Fusion fusion, List<TensorView> tensors, FusionBindings bindings,
                           FusionLocator locator, Fusion written) {
    public LoadedFusion {
        tensors = List.copyOf(tensors);
    }

    public LoadedFusion(ParsedFusion source, Fusion fusion, List<TensorView> tensors, FusionBindings bindings,
                        FusionLocator locator) {
        this(source, fusion, tensors, bindings, locator, fusion);
    }

    public FusionDocument document() { return source.document(); }

    /** This file with {@code propagated} (the written fusion with its shardings inferred) as the fusion run. */
    public LoadedFusion withInferred(Fusion propagated) {
        Map<Integer, TensorView> byId = propagated.tensors().stream().collect(Collectors.toMap(TensorView::id,
                Function.identity()));
        return new LoadedFusion(source, propagated, tensors.stream().map(t -> byId.getOrDefault(t.id(), t)).toList(),
                bindings, locator, written);
    }
}
