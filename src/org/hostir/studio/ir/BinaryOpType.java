package org.hostir.studio.ir;

/** Pointwise binary operations of BinaryOp. */
public enum BinaryOpType {
    ADD("add", "+"), SUB("sub", "-"), MUL("mul", "*"), DIV("div", "/");

    private final String fileName;
    private final String symbol;

    BinaryOpType(String fileName, String symbol) {
        this.fileName = fileName;
        this.symbol = symbol;
    }

    public String fileName() { return fileName; }

    public String symbol() { return symbol; }
}
