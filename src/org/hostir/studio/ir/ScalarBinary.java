package org.hostir.studio.ir;

/** Integer arithmetic and comparison on scalars; printed fully parenthesised as nvFuser does. */
public record ScalarBinary(Op op, Scalar lhs, Scalar rhs) implements Scalar {
    public enum Op {
        ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), EQ("==");

        private final String symbol;

        Op(String symbol) { this.symbol = symbol; }

        public String symbol() { return symbol; }
    }
}
