package org.hostir.studio.ir.op;

import org.hostir.studio.ir.FusionOp;

/**
 * The op families, one per {@link FusionOp} record, each with its definition, in the order fusion files, the
 * format's documentation and the editor's palette list their ops. A new family is a record, a definition, a
 * constant here and a case in {@link #of}; javac then asks for it only in the backends' kernel switches.
 */
public enum OpFamily {
    SET(new SetOp()),
    UNARY(new UnaryOps()),
    BINARY(new BinaryOps()),
    REDUCTION(new ReductionOps()),
    WHERE(new WhereOp()),
    SQUEEZE(new SqueezeOp()),
    EXPAND(new ExpandOp()),
    RESHAPE(new ReshapeOp()),
    BROADCAST(new BroadcastOp()),
    MATMUL(new MatmulOp()),
    LINEAR(new LinearOp()),
    INDEX_SELECT(new IndexSelectOp()),
    TAKE_ALONG_AXIS(new TakeAlongAxisOp()),
    TOPK(new TopKOp()),
    SCATTER(new ScatterOp()),
    GROUPED_MM(new GroupedMmOp());

    private final OpDefinition<? extends FusionOp> definition;

    OpFamily(OpDefinition<? extends FusionOp> definition) {
        this.definition = definition;
    }

    public OpDefinition<? extends FusionOp> definition() { return definition; }

    /** The family of an IR op. */
    public static OpFamily of(FusionOp op) {
        return switch (op) {
            case FusionOp.Set _ -> SET;
            case FusionOp.Unary _ -> UNARY;
            case FusionOp.Binary _ -> BINARY;
            case FusionOp.Reduction _ -> REDUCTION;
            case FusionOp.Where _ -> WHERE;
            case FusionOp.Squeeze _ -> SQUEEZE;
            case FusionOp.Expand _ -> EXPAND;
            case FusionOp.Reshape _ -> RESHAPE;
            case FusionOp.Broadcast _ -> BROADCAST;
            case FusionOp.Matmul _ -> MATMUL;
            case FusionOp.Linear _ -> LINEAR;
            case FusionOp.IndexSelect _ -> INDEX_SELECT;
            case FusionOp.TakeAlongAxis _ -> TAKE_ALONG_AXIS;
            case FusionOp.TopK _ -> TOPK;
            case FusionOp.Scatter _ -> SCATTER;
            case FusionOp.GroupedMm _ -> GROUPED_MM;
        };
    }

    /** The definition of {@code op}'s family, typed for {@code op}: {@link #of} matched the record, so it fits. */
    @SuppressWarnings("unchecked")
    public static OpDefinition<FusionOp> definition(FusionOp op) {
        return (OpDefinition<FusionOp>) of(op).definition;
    }
}
