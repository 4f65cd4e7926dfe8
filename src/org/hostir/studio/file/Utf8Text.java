package org.hostir.studio.file;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 for the files the engine reads (fusion files, dumps): a byte that is not UTF-8 is refused with its
 * place, never read as a replacement character in a name, nor reported as Java's "Input length = 1".
 */
public final class Utf8Text {
    private Utf8Text() {}

    /** The first byte that is not UTF-8: its 0-based offset in the file and its 1-based line. */
    public static final class NotUtf8Exception extends Exception {
        private final long offset;
        private final int line;

        NotUtf8Exception(long offset, int line) {
            super("not UTF-8 (byte offset " + offset + ")", null, false, false);
            this.offset = offset;
            this.line = line;
        }

        public long offset() { return offset; }

        public int line() { return line; }
    }

    /** {@code bytes} as text, or where they stop being UTF-8. */
    public static String decode(byte[] bytes) throws NotUtf8Exception {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) r = decoder.flush(out);
        if (r.isError()) {
            int offset = in.position();
            int line = 1;
            for (int i = 0; i < offset && i < bytes.length; i++) {
                if (bytes[i] == '\n') line++;
            }
            throw new NotUtf8Exception(offset, line);
        }
        return out.flip().toString();
    }
}
