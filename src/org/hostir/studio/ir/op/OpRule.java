package org.hostir.studio.ir.op;

/**
 * The rules an op definition checks, by the id the validator's {@code io.Rule} of the same id prints (the
 * validator looks each up by id; {@code OpRuleTest} keeps both in step).
 */
public enum OpRule {
    SHAPE_SET("shape.set"),
    SHAPE_PERMUTE("shape.permute"),
    SHAPE_BINARY("shape.binary"),
    SHAPE_REDUCTION("shape.reduction"),
    SHAPE_BROADCAST("shape.broadcast"),
    SHAPE_MATMUL("shape.matmul"),
    SHAPE_LINEAR("shape.linear"),
    SHAPE_UNARY("shape.unary"),
    SHAPE_WHERE("shape.where"),
    SHAPE_SQUEEZE("shape.squeeze"),
    SHAPE_RESHAPE("shape.reshape"),
    RESHAPE_SHARDED_AXIS("reshape.sharded-axis"),
    SHAPE_EXPAND("shape.expand"),
    SHAPE_INDEX_SELECT("shape.index-select"),
    SHAPE_TAKE_ALONG_AXIS("shape.take-along-axis"),
    SHAPE_TOPK("shape.topk"),
    SHAPE_SCATTER("shape.scatter"),
    SHAPE_GROUPED_MM("shape.grouped-mm"),
    SHARDING_GROUPED_MM("sharding.grouped-mm"),
    DTYPE_MISMATCH("dtype.mismatch"),
    DTYPE_CAST("dtype.cast"),
    DTYPE_BOOL("dtype.bool"),
    DTYPE_FP8("dtype.fp8"),
    DTYPE_MATMUL("dtype.matmul");

    private final String id;

    OpRule(String id) {
        this.id = id;
    }

    public String id() { return id; }
}
