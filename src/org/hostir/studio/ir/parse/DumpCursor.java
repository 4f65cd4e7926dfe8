package org.hostir.studio.ir.parse;

/**
 * A position in dump text. Every token may be preceded by whitespace, line breaks included, because dumps reach
 * us re-wrapped (seed 001 lost every line break, seed 000 has one inside an ALLOCATE, seed 002 stray blanks).
 */
final class DumpCursor {
    private final String text;
    private final int end;
    private int pos;

    DumpCursor(String text, int start, int end) {
        this.text = text;
        this.pos = start;
        this.end = end;
    }

    String text() { return text; }

    int pos() { return pos; }

    int end() { return end; }

    void moveTo(int p) { pos = p; }

    DumpCursor skipWs() {
        while (pos < end && Character.isWhitespace(text.charAt(pos))) pos++;
        return this;
    }

    boolean atEnd() { return skipWs().pos >= end; }

    /** Whether {@code s} follows (after whitespace); the cursor does not move. */
    boolean peek(String s) {
        int p = pos;
        while (p < end && Character.isWhitespace(text.charAt(p))) p++;
        return text.startsWith(s, p) && p + s.length() <= end;
    }

    /** Consumes {@code s} if it follows (after whitespace). Blanks inside {@code s} match any whitespace run. */
    boolean accept(String s) {
        int p = pos;
        while (p < end && Character.isWhitespace(text.charAt(p))) p++;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ') {
                if (p < end && !Character.isWhitespace(text.charAt(p)) && i > 0) return false;
                while (p < end && Character.isWhitespace(text.charAt(p))) p++;
                i++;
                continue;
            }
            if (p >= end || text.charAt(p) != c) return false;
            p++;
            i++;
        }
        pos = p;
        return true;
    }

    void expect(String s) {
        if (!accept(s)) throw error("expected '" + s + "'");
    }

    /** The next character (after whitespace), or 0 at the end. */
    char next() {
        skipWs();
        return pos < end ? text.charAt(pos) : 0;
    }

    /** The character right at the cursor, no whitespace skipped, or 0 at the end. */
    char here() { return pos < end ? text.charAt(pos) : 0; }

    void advance() { pos++; }

    /** A non-negative decimal number right at the cursor (after whitespace). */
    long number() {
        skipWs();
        int start = pos;
        while (pos < end && Character.isDigit(text.charAt(pos))) pos++;
        if (start == pos) throw error("expected a number");
        try {
            return Long.parseLong(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("number out of range");
        }
    }

    int intNumber() {
        long n = number();
        if (n > Integer.MAX_VALUE) throw error("number out of range");
        return (int) n;
    }

    /** A word of letters, digits, {@code _} and {@code .} (as {@code deviceIdx.x}), after whitespace. */
    String word() {
        skipWs();
        int start = pos;
        while (pos < end && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                || text.charAt(pos) == '.')) {
            pos++;
        }
        if (start == pos) throw error("expected a name");
        return text.substring(start, pos);
    }

    DumpFormatException error(String message) {
        int p = Math.min(pos, text.length());
        int stop = Math.min(p + 30, end);
        String near = p >= end ? "end of dump" : "'" + text.substring(p, Math.max(p, stop)).strip().lines()
                .findFirst().orElse("") + "'";
        return new DumpFormatException(message + " at " + near, p);
    }
}
