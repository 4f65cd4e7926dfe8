package org.hostir.studio.io;

/** Small text helpers for messages that quote user input. */
final class Texts {
    private Texts() {}

    private static final int MAX_QUOTED = 40;

    /** {@code 'name'}, shortened and with control characters escaped, so that hostile input stays readable. */
    static String quote(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("'");
        int n = Math.min(s.length(), MAX_QUOTED);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (s.length() > MAX_QUOTED) b.append("...");
        return b.append('\'').toString();
    }
}
