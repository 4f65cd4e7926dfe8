package org.hostir.studio.ir.op;

/**
 * What an op's kernel does, as the timeline shows it and the simulator's cost model charges it: a GEMM, a copy, an
 * elementwise or reducing computation (one flop per element), or data moved between layouts (no flops).
 */
public enum OpWork {
    /** {@code at::matmul}: a GEMM. */
    MATMUL,
    /** {@code at::linear}: a GEMM (and its bias). */
    LINEAR,
    /** A plain copy. */
    COPY,
    /** One operation per element: pointwise ops and reductions. */
    ELEMENTWISE,
    /** Elements moved or repeated between layouts, nothing computed. */
    MOVE
}
