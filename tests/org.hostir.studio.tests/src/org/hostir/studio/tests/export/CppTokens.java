package org.hostir.studio.tests.export;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small C++ tokenizer for checking exports: line splices ({@code \} before a line break) joined first, as a
 * compiler's translation phase 2 does, then comments ({@code //} to the end of the line, where a CR ends a line
 * too; block comments), string and character literals, words (identifiers, keywords, numbers) and single
 * punctuation characters. Whitespace separates. A literal that a line break ends, or an unclosed comment, throws:
 * the text would not compile as the test expects.
 */
final class CppTokens {
    enum Kind { COMMENT, STRING, CHAR, WORD, PUNCT }

    record Token(Kind kind, String text) {}

    private CppTokens() {}

    static List<Token> of(String code) {
        String s = code.replace("\\\r\n", "").replace("\\\n", "").replace("\\\r", "");
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            Kind kind;
            if (c == ' ' || c == '\n' || c == '\t') {
                i++;
                continue;
            } else if (s.startsWith("//", i)) {
                end = i;
                while (end < s.length() && s.charAt(end) != '\n' && s.charAt(end) != '\r') end++;
                kind = Kind.COMMENT;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                if (end < 0) throw new IllegalArgumentException("unclosed block comment at " + i);
                end += 2;
                kind = Kind.COMMENT;
            } else if (c == '"' || c == '\'') {
                end = literalEnd(s, i);
                kind = c == '"' ? Kind.STRING : Kind.CHAR;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                end = i;
                while (end < s.length() && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_')) end++;
                kind = Kind.WORD;
            } else {
                end = i + 1;
                kind = Kind.PUNCT;
            }
            out.add(new Token(kind, s.substring(i, end)));
            i = end;
        }
        return out;
    }

    /** The string literals quoted in a comment's text, in order. */
    static List<String> literalsIn(String comment) {
        List<String> out = new ArrayList<>();
        for (int i = comment.indexOf('"'); i >= 0; i = comment.indexOf('"', i)) {
            int end = literalEnd(comment, i);
            out.add(comment.substring(i, end));
            i = end;
        }
        return out;
    }

    private static int literalEnd(String s, int start) {
        char quote = s.charAt(start);
        for (int i = start + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') i++;
            else if (c == quote) return i + 1;
            else if (c == '\n' || c == '\r') break;
        }
        throw new IllegalArgumentException("unterminated literal at " + start);
    }

    /**
     * The text a narrow string literal that opens {@code text} holds: its escapes ({@code \n}, {@code \r},
     * {@code \t}, {@code \\}, {@code \"}, {@code \?}, octal) give bytes, other characters their UTF-8 bytes, and the
     * bytes read as UTF-8 that admits surrogates (the export writes a lone one as its three bytes).
     */
    static String literalValue(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 1;
        while (text.charAt(i) != '"') {
            char c = text.charAt(i);
            if (c != '\\') {
                int cp = text.codePointAt(i);
                bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
                continue;
            }
            char e = text.charAt(i + 1);
            i += 2;
            switch (e) {
                case 'n' -> bytes.write('\n');
                case 'r' -> bytes.write('\r');
                case 't' -> bytes.write('\t');
                case '\\', '"', '?', '\'' -> bytes.write(e);
                default -> {
                    if (e < '0' || e > '7') throw new IllegalArgumentException("escape \\" + e + " in " + text);
                    int v = e - '0';
                    for (int k = 0; k < 2 && text.charAt(i) >= '0' && text.charAt(i) <= '7'; k++) {
                        v = v * 8 + text.charAt(i++) - '0';
                    }
                    bytes.write(v);
                }
            }
        }
        return wtf8(bytes.toByteArray());
    }

    private static String wtf8(byte[] b) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < b.length; ) {
            int x = b[i] & 0xFF;
            int n = x < 0x80 ? 0 : x < 0xE0 ? 1 : x < 0xF0 ? 2 : 3;
            int cp = n == 0 ? x : x & (0x3F >> n);
            for (int k = 1; k <= n; k++) cp = cp << 6 | (b[i + k] & 0x3F);
            out.appendCodePoint(cp);
            i += n + 1;
        }
        return out.toString();
    }
}
