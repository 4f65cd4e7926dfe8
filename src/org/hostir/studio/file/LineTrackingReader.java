package org.hostir.studio.file;

import java.io.IOException;
import java.io.Reader;

/**
 * Feeds a JsonReader one character per read, so that the JsonReader never holds more than the token it is
 * looking at, and remembers the line of the last non-blank character it handed out. After {@code peek()}
 * that is the line of the token peeked at: Gson keeps its own position private, and this is how a
 * diagnostic learns its line without relying on Gson's message texts.
 *
 * <p>It also follows where strings begin and end, because Gson accepts what RFC 8259 does not: a raw control
 * character (U+0000 to U+001F) inside a string (section 7: they must be escaped), and a lone UTF-16 surrogate,
 * raw or escaped as {@code \ud800} (section 8.2: not a Unicode character; a name holding one cannot be printed or
 * written back as UTF-8). Either ends the reading with {@link BadCharacter}, at its line and column.
 */
final class LineTrackingReader extends Reader {
    /** A character RFC 8259 refuses inside a string, at its 1-based line and column. */
    static final class BadCharacter extends IOException {
        private static final long serialVersionUID = 1L;
        final int line;
        final int column;

        BadCharacter(int line, int column, String message) {
            super(message);
            this.line = line;
            this.column = column;
        }
    }

    private enum State { OUTSIDE, STRING, ESCAPE, UNICODE }

    private final String text;
    private int pos;
    private int line = 1;
    private int column;
    private int lastTokenLine = 1;
    private State state = State.OUTSIDE;
    private int hex; // a \\u escape's value so far
    private int hexDigits;
    private int escapeColumn;
    private int highSurrogateColumn; // > 0 while a high surrogate waits for its low half

    LineTrackingReader(String text) {
        this.text = text;
    }

    /** Line of the last non-blank character read (where the token just peeked at starts). */
    int tokenLine() { return lastTokenLine; }

    /** Whether the text holds nothing but blanks (and a byte order mark). */
    boolean isBlank() {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\ufeff') return false;
        }
        return true;
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        if (length == 0) return 0;
        if (pos >= text.length()) return -1;
        char c = text.charAt(pos++);
        buffer[offset] = c;
        if (c == '\n' && state == State.OUTSIDE) {
            line++;
            column = 0;
            return 1;
        }
        column++;
        if (c != ' ' && c != '\t' && c != '\r') lastTokenLine = line;
        follow(c);
        return 1;
    }

    private void follow(char c) throws BadCharacter {
        switch (state) {
            case OUTSIDE -> {
                if (c == '"') state = State.STRING;
            }
            case STRING -> {
                if (c == '\\') {
                    state = State.ESCAPE;
                    escapeColumn = column;
                } else {
                    if (c == '"') state = State.OUTSIDE;
                    if (c < 0x20) {
                        throw new BadCharacter(line, column, String.format("raw control character U+%04X in a string"
                                + " (JSON escapes U+0000 to U+001F, as \\u%04x)", (int) c, (int) c));
                    }
                    character(c, column);
                }
            }
            case ESCAPE -> {
                if (c == 'u') {
                    state = State.UNICODE;
                    hex = 0;
                    hexDigits = 0;
                } else {
                    state = State.STRING;
                    character(c, escapeColumn);
                }
            }
            case UNICODE -> {
                int d = c < 0x80 ? Character.digit(c, 16) : -1;
                if (d < 0) { // not an escape Gson reads either: its own error follows
                    state = State.STRING;
                    return;
                }
                hex = hex * 16 + d;
                if (++hexDigits == 4) {
                    state = State.STRING;
                    character((char) hex, escapeColumn);
                }
            }
        }
    }

    /** A string's next character (raw or escaped, starting at {@code at}); the closing quote ends a string. */
    private void character(char c, int at) throws BadCharacter {
        boolean closing = c == '"' && state == State.OUTSIDE;
        if (highSurrogateColumn > 0) {
            if (Character.isLowSurrogate(c) && !closing) {
                highSurrogateColumn = 0;
                return;
            }
            throw lone(highSurrogateColumn, "a high surrogate without its low half");
        }
        if (closing) return;
        if (Character.isHighSurrogate(c)) highSurrogateColumn = at;
        else if (Character.isLowSurrogate(c)) throw lone(at, "a low surrogate without its high half");
    }

    private BadCharacter lone(int at, String what) {
        return new BadCharacter(line, at, "lone surrogate in a string (" + what + ", not a Unicode character)");
    }

    @Override
    public void close() {}
}
