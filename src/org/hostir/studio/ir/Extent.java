package org.hostir.studio.ir;

/** The extent of an IterDomain: a symbol bound at run time ({@code i0}) or a constant. */
public sealed interface Extent extends Scalar {

    /**
     * A symbolic extent. {@code id} gives nvFuser's printed name {@code i<id>}; {@code name} is the user's symbol
     * ({@code M}, {@code D}) from the fusion file, kept for legends and the UI, never printed in dumps.
     */
    record Symbolic(int id, String name) implements Extent {
        public Symbolic {
            if (id < 0) throw new IllegalArgumentException("symbol id must be >= 0");
            if (name == null || name.isEmpty()) throw new IllegalArgumentException("symbol needs a name");
        }
    }

    record Constant(long value) implements Extent {}
}
