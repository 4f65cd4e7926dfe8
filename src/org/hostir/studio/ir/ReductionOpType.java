package org.hostir.studio.ir;

/**
 * Reductions of ReductionOp, with nvFuser's printed op name and initial value. nvFuser has no mean op:
 * {@code mean()} (csrc/ops/normalization.cpp) is a sum followed by a division by the number of reduced elements.
 */
public enum ReductionOpType {
    SUM("sum", "add", "float(0)"),
    MAX("max", "max", "float(-inf)"),
    /** nvFuser's min(): BinaryOpType::Min, initial value the dtype's largest (infinity for floats). */
    MIN("min", "min", "float(inf)"),
    /** nvFuser's prod(): BinaryOpType::Mul, initial value one. */
    PROD("prod", "mul", "float(1)");

    private final String fileName;
    private final String dumpName;
    private final String initialValue;

    ReductionOpType(String fileName, String dumpName, String initialValue) {
        this.fileName = fileName;
        this.dumpName = dumpName;
        this.initialValue = initialValue;
    }

    public String fileName() { return fileName; }

    public String dumpName() { return dumpName; }

    public String initialValue() { return initialValue; }
}
