package org.hostir.studio.io;

/** Small text helpers for messages that quote user input. */
public final class Texts {
    private Texts() {}

    private static final int MAX_QUOTED = 40;

    /** Free text from a file (a fusion's name) with control characters escaped, for printing on a terminal. */
    public static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.toString();
    }

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
