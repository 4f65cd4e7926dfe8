package org.hostir.studio.export;

import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * What the Python and C++ string literals of the exports share: the quotes, the escapes both languages spell
 * alike (backslash, quote, LF, CR, tab), and the bare form of a plain name in a comment. Each language's own
 * escapes (C++'s octal bytes and {@code ?\?}, Python's {@code \xNN} and {@code \\uNNNN}) stay in its class.
 */
final class QuotedText {
    /** Text written bare in a comment: no quote, backslash, {@code ?}, {@code :} or {@code =}. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.+-]+");

    private QuotedText() {}

    /** {@code "text"}, each code point not escaped alike in both languages written by {@code other}. */
    static String literal(String text, BiConsumer<Integer, StringBuilder> other) {
        StringBuilder b = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> other.accept(c, b);
            }
        }
        return b.append('"').toString();
    }

    /** Whether {@code text} may stand bare in a comment of either language. */
    static boolean plain(String text) { return PLAIN.matcher(text).matches(); }
}
