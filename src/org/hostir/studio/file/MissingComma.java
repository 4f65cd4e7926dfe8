package org.hostir.studio.file;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A missing comma between two members or elements, found where Gson stops: Gson reports it as "Unterminated
 * object" (or array) at the start of the next member, a line after the mistake (issue 35). When the text before
 * that place ends a value and the text there starts one, the user left out the comma after the value, on the
 * value's line.
 *
 * @param line    the line of the value the comma should follow (1-based)
 * @param message the diagnostic's words
 */
record MissingComma(int line, String message) {
    private static final Pattern AT = Pattern.compile("^Unterminated (object|array) at line (\\d+) column (\\d+)");

    /** The missing comma that Gson's {@code gsonMessage} about {@code text} stands for, if that is its cause. */
    static Optional<MissingComma> find(String text, String gsonMessage) {
        Matcher m = gsonMessage == null ? null : AT.matcher(gsonMessage);
        if (m == null || !m.find()) return Optional.empty();
        // Gson's column is one past the character it stopped at
        int next = offset(text, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)) - 1);
        if (next < 0 || next >= text.length() || "\"{[-0123456789tfn".indexOf(text.charAt(next)) < 0) {
            return Optional.empty();
        }
        int end = next - 1;
        while (end >= 0 && Character.isWhitespace(text.charAt(end))) end--;
        if (end < 0 || "\"}]0123456789el".indexOf(text.charAt(end)) < 0) return Optional.empty();
        int line = (int) text.substring(0, end + 1).chars().filter(c -> c == '\n').count() + 1;
        int nextLine = Integer.parseInt(m.group(2));
        String what = m.group(1).equals("object") ? "member" : "element";
        return Optional.of(new MissingComma(line, "missing ',' after this " + what + " (the next one starts "
                + (nextLine == line ? "after it" : "on line " + nextLine) + ")"));
    }

    /** The offset of {@code column} (1-based) on {@code line} (1-based), or -1. */
    private static int offset(String text, int line, int column) {
        int at = 0;
        for (int l = 1; l < line; l++) {
            at = text.indexOf('\n', at);
            if (at < 0) return -1;
            at++;
        }
        return at + column - 1;
    }
}
