package org.hostir.studio.tests.hostile;

import java.nio.charset.StandardCharsets;

/** Text made into bytes that need not be UTF-8. */
final class Bytes {
    private Bytes() {}

    static byte[] utf8(String text) { return text.getBytes(StandardCharsets.UTF_8); }

    /** {@code text} with {@code inserted} put in, as raw bytes, right after the first {@code after}. */
    static byte[] insert(String text, String after, byte... inserted) {
        int at = text.indexOf(after);
        if (at < 0) throw new IllegalArgumentException("no '" + after + "' in the text");
        byte[] head = utf8(text.substring(0, at + after.length())), tail = utf8(text.substring(at + after.length()));
        byte[] out = new byte[head.length + inserted.length + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(inserted, 0, out, head.length, inserted.length);
        System.arraycopy(tail, 0, out, head.length + inserted.length, tail.length);
        return out;
    }

    static byte[] of(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return b;
    }
}
