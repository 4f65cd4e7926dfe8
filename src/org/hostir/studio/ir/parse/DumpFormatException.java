package org.hostir.studio.ir.parse;

/**
 * Text that is not a Host IR dump where one must be (no container, an unclosed one, a broken header). Inside a
 * container, a statement the reader cannot parse is kept as an opaque node instead; this is for what cannot be.
 * {@code offset} is a character offset into the text read; the reader turns it into a line for the message.
 */
public final class DumpFormatException extends RuntimeException {
    private final int offset;

    public DumpFormatException(String message, int offset) {
        super(message);
        this.offset = offset;
    }

    public int offset() { return offset; }
}
