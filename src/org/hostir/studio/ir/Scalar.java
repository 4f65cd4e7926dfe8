package org.hostir.studio.ir;

/**
 * A host-side integer expression: extents, named scalars bound at run time ({@code StreamIdx},
 * {@code numberOfStreams}, {@code deviceIdx.x}) and arithmetic over them.
 */
public sealed interface Scalar permits Extent, NamedScalar, ScalarBinary, MeshLookup {

    static Scalar constant(long value) { return new Extent.Constant(value); }

    static Scalar mul(Scalar a, Scalar b) {
        if (a instanceof Extent.Constant(long x) && b instanceof Extent.Constant(long y)) {
            return new Extent.Constant(x * y);
        }
        if (a instanceof Extent.Constant(long x) && x == 1) return b;
        if (b instanceof Extent.Constant(long y) && y == 1) return a;
        return new ScalarBinary(ScalarBinary.Op.MUL, a, b);
    }

    static Scalar mod(Scalar a, Scalar b) { return new ScalarBinary(ScalarBinary.Op.MOD, a, b); }

    static Scalar add(Scalar a, Scalar b) { return new ScalarBinary(ScalarBinary.Op.ADD, a, b); }

    static Scalar sub(Scalar a, Scalar b) { return new ScalarBinary(ScalarBinary.Op.SUB, a, b); }

    /** {@code ceilDiv(a, b)}; folded when both are constants, as nvFuser's simplifier does. */
    static Scalar ceilDiv(Scalar a, Scalar b) {
        if (a instanceof Extent.Constant(long x) && b instanceof Extent.Constant(long y) && y > 0) {
            return new Extent.Constant((x + y - 1) / y);
        }
        return new ScalarBinary(ScalarBinary.Op.CEIL_DIV, a, b);
    }

    static Scalar eq(Scalar a, Scalar b) { return new ScalarBinary(ScalarBinary.Op.EQ, a, b); }

    static Scalar lt(Scalar a, Scalar b) { return new ScalarBinary(ScalarBinary.Op.LT, a, b); }

    /** The device id at {@code position} of {@code mesh} (a peer or root); the position itself on {0 .. n-1}. */
    static Scalar deviceAt(DeviceMesh mesh, Scalar position) {
        return MeshLookup.isIdentity(mesh) ? position : new MeshLookup(MeshLookup.Kind.AT, mesh, position);
    }

    /**
     * This rank's position in {@code mesh}, its DIDx index: {@code deviceIdx.x} on a mesh {0 .. n-1}, where it
     * equals the device id, else {@code DeviceMesh{..}.idxOf(rank)}.
     */
    static Scalar positionIn(DeviceMesh mesh) {
        return MeshLookup.isIdentity(mesh) ? NamedScalar.RANK
                : new MeshLookup(MeshLookup.Kind.IDX_OF, mesh, NamedScalar.DEVICE_ID);
    }
}
