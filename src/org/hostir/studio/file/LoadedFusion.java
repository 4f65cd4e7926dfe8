package org.hostir.studio.file;

import java.util.List;

import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.FusionBindings;

/**
 * A fusion file read, converted and validated: the document, the IR, every tensor of the file in file order
 * ({@code tensors.get(i)} is {@code T<i>}), the bindings it was instantiated with and its locator.
 */
public record LoadedFusion(ParsedFusion source, Fusion fusion, List<TensorView> tensors, FusionBindings bindings,
                           FusionLocator locator) {
    public LoadedFusion {
        tensors = List.copyOf(tensors);
    }

    public FusionDocument document() { return source.document(); }
}
