package org.hostir.studio.ir;

/** Reductions of ReductionOp, with nvFuser's printed op name and initial value. */
public enum ReductionOpType {
    SUM("sum", "add", "float(0)"),
    MAX("max", "max", "float(-inf)");

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
