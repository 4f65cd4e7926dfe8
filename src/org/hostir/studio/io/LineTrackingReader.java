package org.hostir.studio.io;

import java.io.Reader;

/**
 * Feeds a JsonReader one character per read, so that the JsonReader never holds more than the token it is
 * looking at, and remembers the line of the last non-blank character it handed out. After {@code peek()}
 * that is the line of the token peeked at: Gson keeps its own position private, and this is how a
 * diagnostic learns its line without relying on Gson's message texts.
 */
final class LineTrackingReader extends Reader {
    private final String text;
    private int pos;
    private int line = 1;
    private int lastTokenLine = 1;

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
    public int read(char[] buffer, int offset, int length) {
        if (length == 0) return 0;
        if (pos >= text.length()) return -1;
        char c = text.charAt(pos++);
        buffer[offset] = c;
        if (c == '\n') {
            line++;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            lastTokenLine = line;
        }
        return 1;
    }

    @Override
    public void close() {}
}
