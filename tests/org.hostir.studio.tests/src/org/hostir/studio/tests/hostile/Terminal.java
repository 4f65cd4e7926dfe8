package org.hostir.studio.tests.hostile;

import java.util.Optional;

/** What may reach a terminal: no raw control character but line feed and tab (C0, DEL and C1 are all refused). */
final class Terminal {
    private Terminal() {}

    static Optional<String> rawControl(String text, String where) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch != '\n' && ch != '\t' && Character.isISOControl(ch)) {
                int line = (int) text.substring(0, i).chars().filter(x -> x == '\n').count() + 1;
                return Optional.of(String.format("raw control character U+%04X on %s, line %d", (int) ch, where, line));
            }
        }
        return Optional.empty();
    }

    /** {@code text} for the report: control and unusual characters as {@code \\uXXXX}, long texts cut. */
    static String shown(String text) {
        StringBuilder b = new StringBuilder();
        int limit = 160;
        for (int i = 0; i < text.length() && b.length() < limit; i++) {
            char ch = text.charAt(i);
            if (ch >= 0x20 && ch < 0x7f) b.append(ch);
            else b.append(String.format("\\u%04x", (int) ch));
        }
        if (b.length() >= limit && text.length() > limit) b.append("... (").append(text.length()).append(" chars)");
        return b.toString();
    }
}
