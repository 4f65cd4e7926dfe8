package org.hostir.studio.export;

import java.nio.charset.StandardCharsets;

import org.hostir.studio.diag.TerminalText;

/**
 * The one way user text (a fusion's name, its description, the file it came from) enters the C++ export: as a
 * narrow string literal, in code or quoted inside a {@code //} comment. Nothing of it can end the comment or the
 * literal: backslash and quote are escaped, so a comment never ends in a backslash (which would splice the next
 * line into it); every character {@link TerminalText#isUnsafe} names (CR, LF, NUL, the bidi overrides) is written
 * as its UTF-8 bytes in three-digit octal escapes (never {@code \x}, which swallows the hex digits after it; never a
 * universal character name, which C++ before C++23 forbids for controls and surrogates; a lone surrogate is
 * written as the three bytes UTF-8 would give it); {@code ??} is written {@code ?\?} so that no trigraph forms
 * where a compiler still reads them.
 */
final class CppText {
    private CppText() {}

    /** {@code "text"}: a C++ string literal whose bytes are {@code text} in UTF-8. */
    static String literal(String text) {
        return QuotedText.literal(text, (c, b) -> {
            if (c == '?') b.append(b.charAt(b.length() - 1) == '?' ? "\\?" : "?");
            else if (TerminalText.isUnsafe(c)) octal(c, b);
            else b.appendCodePoint(c);
        });
    }

    /** Text for a comment: a plain name as it is, anything else as its {@link #literal}. */
    static String inComment(String text) {
        return QuotedText.plain(text) ? text : literal(text);
    }

    private static void octal(int c, StringBuilder b) {
        byte[] bytes = Character.isSurrogate((char) c) && c <= 0xFFFF
                ? new byte[] {(byte) (0xE0 | c >> 12), (byte) (0x80 | (c >> 6 & 0x3F)), (byte) (0x80 | (c & 0x3F))}
                : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        for (byte x : bytes) b.append(String.format("\\%03o", x & 0xFF));
    }
}
