package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.op.OpFamily;

/**
 * The operands an op gets when it is added with nothing selected. nvFuser builds no op without its inputs (a test
 * defines its tensors first, {@code makeContigTensor} / {@code fd.define_tensor}, then calls the op on them), so the
 * editor defines the operands the op needs as new fusion inputs, shaped as nvFuser's tests shape them for that op
 * (matmul {@code [M, K] x [K, N]}, linear {@code [M, K]} by a weight {@code [N, K]}, a where's condition a bool), on
 * the mesh the fusion's tensors use, instead of an op without inputs and a mesh-less {@code [1]} output.
 */
public final class NewOperands {
    private NewOperands() {}

    /** The operand tensors for a new {@code kind} op: named {@code names} (one per required input), not yet added. */
    public static List<TensorSpec> of(FusionDocument doc, OpKind kind, List<String> names) {
        MeshSpec mesh = doc.tensors().isEmpty() ? MeshSpec.ABSENT : doc.tensors().get(0).mesh();
        List<List<AxisSpec>> shapes = shapes(kind);
        List<TensorSpec> out = new ArrayList<>();
        for (int i = 0; i < shapes.size(); i++) {
            DataType dtype = kind.family() == OpFamily.WHERE && i == 0 ? DataType.BOOL
                    : (kind.family() == OpFamily.INDEX_SELECT || kind.family() == OpFamily.TAKE_ALONG_AXIS
                    || kind.family() == OpFamily.SCATTER) && i == 1 ? DataType.INT64
                    : kind.family() == OpFamily.GROUPED_MM && i == 2 ? DataType.INT32 : DataType.FLOAT;
            out.add(new TensorSpec(names.get(i), dtype, null, shapes.get(i), mesh));
        }
        return out;
    }

    /** How many operands a new {@code kind} op is given (its required inputs; linear's bias is optional). */
    public static int count(OpKind kind) { return kind.minInputs(); }

    private static List<List<AxisSpec>> shapes(OpKind kind) {
        List<AxisSpec> mn = List.of(axis("M"), axis("N"));
        List<AxisSpec> unit = List.of(axis("M"), new AxisSpec(ExtentSpec.size(1), IterType.BROADCAST, ParallelType.SERIAL));
        return switch (kind.family()) {
            case SET, UNARY, REDUCTION, RESHAPE, BROADCAST -> List.of(mn);
            case SQUEEZE, EXPAND -> List.of(unit);
            case BINARY -> List.of(mn, mn);
            case WHERE -> List.of(mn, mn, mn);
            case MATMUL -> List.of(List.of(axis("M"), axis("K")), List.of(axis("K"), axis("N")));
            case LINEAR -> List.of(List.of(axis("M"), axis("K")), List.of(axis("N"), axis("K")));
            case INDEX_SELECT -> List.of(mn, List.of(axis("I")));
            case TAKE_ALONG_AXIS -> List.of(mn, List.of(axis("M"), axis("K")));
            case TOPK -> List.of(mn);
            case SCATTER -> List.of(mn, mn, mn);
            case GROUPED_MM -> List.of(List.of(axis("M"), axis("K")), List.of(axis("G"), axis("K"), axis("N")),
                    List.of(axis("G")));
        };
    }

    private static AxisSpec axis(String symbol) { return AxisSpec.of(ExtentSpec.symbol(symbol)); }
}
