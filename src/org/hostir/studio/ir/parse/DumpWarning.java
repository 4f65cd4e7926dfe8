package org.hostir.studio.ir.parse;

/** Something the reader kept but could not fully understand or had to infer, at a 1-based line of the text. */
public record DumpWarning(int line, String message) {
    @Override
    public String toString() { return "line " + line + ": " + message; }
}
