package org.hostir.studio.export;

import org.hostir.studio.diag.TerminalText;

/**
 * The one way user text (a fusion's name, its description, the file it came from) enters the Python export: as a
 * string literal, in code or quoted inside a {@code #} comment. Nothing of it can end the comment or the literal:
 * backslash and quote are escaped, and every character {@link TerminalText#isUnsafe} names (CR, LF and NUL among
 * them, and the bidi overrides that make code read other than it runs) is written as {@code \xNN}, {@code \\uNNNN}
 * or {@code \\UNNNNNNNN}, which Python reads back as the same character (a lone surrogate too).
 */
final class PythonText {
    private PythonText() {}

    /** {@code "text"}: a Python string literal whose value is {@code text}. */
    static String literal(String text) {
        return QuotedText.literal(text, (c, b) -> {
            if (!TerminalText.isUnsafe(c)) b.appendCodePoint(c);
            else if (c <= 0xFF) b.append(String.format("\\x%02x", c));
            else if (c <= 0xFFFF) b.append(String.format("\\u%04x", c));
            else b.append(String.format("\\U%08x", c));
        });
    }

    /** Text for a comment: a plain name as it is, anything else as its {@link #literal}. */
    static String inComment(String text) {
        return QuotedText.plain(text) ? text : literal(text);
    }
}
