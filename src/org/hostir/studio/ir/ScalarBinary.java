package org.hostir.studio.ir;

/** Integer arithmetic and comparison on scalars; printed fully parenthesised as nvFuser does. */
public record ScalarBinary(Op op, Scalar lhs, Scalar rhs) implements Scalar {
    public enum Op {
        ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), EQ("=="),
        /** nvFuser's {@code lt}, the predicate of inter_stream_synchronization's IfThenElse. */
        LT("<"),
        /** nvFuser's {@code ceilDiv(a, b)}, the extent of a split's outer or inner part; printed as a call. */
        CEIL_DIV("ceilDiv");

        private final String symbol;

        Op(String symbol) { this.symbol = symbol; }

        public String symbol() { return symbol; }
    }
}
