package org.hostir.studio.tests.reliability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code LockedTemporaryMain FILE}: creates {@code FILE} and holds an exclusive lock on it, as a live writer holds
 * its temporary file's, printing {@code locked}; it never lets go.
 */
public final class LockedTemporaryMain {
    private LockedTemporaryMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Path file = Files.createFile(Path.of(args[0]));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.lock();
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
