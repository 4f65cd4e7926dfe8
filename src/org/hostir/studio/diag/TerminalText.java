package org.hostir.studio.diag;

/**
 * Text from a file or the command line made safe to show: the one escaping of user text on its way to a terminal
 * (every {@code error:} and {@code warning:} line, every command's output through {@code cli.TerminalStream}),
 * and the set of characters the exporters escape in generated code. In {@code diag}, the bottom layer, so that
 * every layer that builds a message (the dump reader, the file reader, the engine) can use it.
 *
 * <p>Escaped: C0 controls (NUL, BEL, ESC, CR, LF, TAB...), DEL and the C1 controls (U+0080-U+009F, CSI among
 * them), format characters (Unicode class Cf: the bidi overrides and isolates of "Trojan Source", zero-width
 * characters, the BOM), the line and paragraph separators U+2028/U+2029, and surrogates not in a pair. Each
 * becomes a backslash, {@code u} and four hex digits (ESC is {@code \\u001b}; beyond the BMP, {@code U} and
 * eight); everything else, backslashes included, is kept, so escaping twice changes nothing.
 */
public final class TerminalText {
    private TerminalText() {}

    /** {@code text} with every {@link #isUnsafe unsafe} character written as a {@code \\uXXXX} escape. */
    public static String escape(String text) {
        if (text == null) return "null";
        int i = 0;
        while (i < text.length() && !isUnsafe(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
        if (i == text.length()) return text;
        StringBuilder b = new StringBuilder(text.length() + 16).append(text, 0, i);
        while (i < text.length()) {
            int c = text.codePointAt(i);
            if (!isUnsafe(c)) b.appendCodePoint(c);
            else b.append(c > 0xFFFF ? String.format("\\U%08x", c) : String.format("\\u%04x", c));
            i += Character.charCount(c);
        }
        return b.toString();
    }

    /**
     * Whether a code point (a lone surrogate arrives as itself) can change what a terminal or a source file does
     * rather than show a glyph: controls, format characters, line/paragraph separators, unpaired surrogates.
     */
    public static boolean isUnsafe(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE -> true;
            default -> false;
        };
    }
}
