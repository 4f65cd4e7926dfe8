package org.hostir.studio.diag;

/** Small text helpers for messages that quote user input; the escaping is {@link TerminalText}'s. */
public final class Texts {
    private Texts() {}

    private static final int MAX_QUOTED = 40;

    /** Free text from a file (a fusion's name) with control characters escaped, for printing on a terminal. */
    public static String printable(String s) { return TerminalText.escape(s); }

    /** {@code 'name'}, shortened and with control characters escaped, so that hostile input stays readable. */
    public static String quote(String s) {
        if (s == null) return "null";
        boolean shortened = s.length() > MAX_QUOTED;
        return "'" + TerminalText.escape(shortened ? s.substring(0, MAX_QUOTED) : s) + (shortened ? "..." : "") + "'";
    }
}
