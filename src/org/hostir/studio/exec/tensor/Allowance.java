package org.hostir.studio.exec.tensor;

/**
 * The largest |actual - expected| a {@link Comparison} accepts at each element: a fixed {@link Tolerance}, or the
 * error bound the reference carries beside its values ({@link BoundTolerance}).
 */
public interface Allowance {
    /** The allowed difference at row-major element {@code flat}, whose expected value is {@code expected}. */
    double allowed(int flat, double expected);

    /** How that allowance came about, for a FAIL line. */
    String explain(int flat, double expected);
}
