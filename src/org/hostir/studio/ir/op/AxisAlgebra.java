package org.hostir.studio.ir.op;

/**
 * The operations the families' proposed output axes need over an axis type of the caller's (the editor's axes of
 * a fusion file, before there is any IR): a definition then derives axes without knowing how they are written.
 */
public interface AxisAlgebra<A> {
    /** A broadcast axis or one of extent 1: it stretches to any extent. */
    boolean isUnit(A a);

    /** Whether it is DID-parallel. */
    boolean isDeviceDim(A a);

    /** A new broadcast axis of extent 1. */
    A broadcast();

    /** {@code a} as a plain iteration axis (its extent only). */
    A plain(A a);

    /** {@code a} reduced by a contraction (matmul, linear): its extent, a serial reduction axis. */
    A contracted(A a);

    /**
     * {@code a} reduced in place by a reduction: its parallel type kept, except Stream (a Stream axis cannot be a
     * reduction, rule stream.reduction), which becomes Serial.
     */
    A reduced(A a);
}
