package org.hostir.studio.tests.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.hostir.studio.file.AtomicFiles;

/**
 * {@code SlowWriteMain TARGET}: writes {@code TARGET} through {@link AtomicFiles} and stops in the middle, after
 * a MiB, printing {@code writing}; it never finishes, so the test's signal always lands mid-write.
 */
public final class SlowWriteMain {
    private SlowWriteMain() {}

    public static void main(String[] args) throws IOException {
        AtomicFiles.write(Path.of(args[0]), out -> {
            byte[] chunk = new byte[1 << 16];
            Arrays.fill(chunk, (byte) 'x');
            for (int i = 0; i < 16; i++) out.write(chunk);
            out.flush();
            System.out.println("writing");
            System.out.flush();
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
