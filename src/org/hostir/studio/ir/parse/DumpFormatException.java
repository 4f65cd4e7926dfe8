package org.hostir.studio.ir.parse;

/**
 * Text that is not a Host IR dump where one must be (no container, an unclosed one, a broken header). Inside a
 * container, a statement the reader cannot parse is kept as an opaque node instead; this is for what cannot be.
 * {@code offset} is a character offset into the text read; the reader turns it into a line for the message.
 */
public final class DumpFormatException extends RuntimeException {
    /** The rule of text that is not a dump where one must be. */
    public static final String SYNTAX = "dump.syntax";
    /** The rule of a dump beyond what the reader takes ({@link HostIrDumpReader#MAX_NESTING}). */
    public static final String LIMIT = "dump.limit";

    private final int offset;
    private final String rule;

    public DumpFormatException(String message, int offset) { this(message, offset, SYNTAX); }

    public DumpFormatException(String message, int offset, String rule) {
        super(message);
        this.offset = offset;
        this.rule = rule;
    }

    public int offset() { return offset; }

    public String rule() { return rule; }
}
