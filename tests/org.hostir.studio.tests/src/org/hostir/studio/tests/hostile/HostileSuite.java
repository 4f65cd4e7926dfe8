package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.hostir.studio.tests.CliRun;

/**
 * Runs generated hostile cases in this JVM, as the command line does ({@link CliRun}), each in a folder of its own
 * whose every file is checksummed before and after, and classifies each result.
 */
final class HostileSuite {
    /** A case that takes longer is a hang. */
    static final long CASE_SECONDS = 60;

    record Result(HostileCase hostile, CaseRun run, Classifier.Outcome outcome, long millis) {}

    private ExecutorService worker = newWorker();

    /**
     * Every case when {@code full}, else the light ones and a seeded sample of {@code 1 / heavyEvery} of the heavy
     * ones (runs and simulations): the same sample on every machine.
     */
    static List<HostileCase> select(List<HostileCase> all, boolean full, long seed, int heavyEvery) {
        Random random = new Random(seed);
        List<HostileCase> out = new ArrayList<>();
        for (HostileCase c : all) {
            boolean keep = random.nextInt(heavyEvery) == 0; // drawn for every case: the sample is stable
            if (full || !c.heavy() || keep) out.add(c);
        }
        return out;
    }

    Result run(HostileCase c, Path dir) throws IOException {
        Files.createDirectories(dir);
        c.setup().prepare(dir);
        FileState before = FileState.of(dir);
        List<String> args = c.args().in(dir);
        long start = System.nanoTime();
        CaseRun run = invoke(args);
        long millis = (System.nanoTime() - start) / 1_000_000;
        FileState after = FileState.of(dir);
        FileState.Damage damage = before.damage(after, Classifier.accepted(c, run) ? c.outputs() : List.of());
        Classifier.Outcome outcome = Classifier.classify(c, dir, run, damage);
        writable(dir);
        return new Result(c, run, outcome, millis);
    }

    private CaseRun invoke(List<String> args) {
        Future<CliRun> f = worker.submit(() -> CliRun.of(args.toArray(String[]::new)));
        try {
            CliRun r = f.get(CASE_SECONDS, TimeUnit.SECONDS);
            return new CaseRun(args, r.code(), r.out(), r.err(), false);
        } catch (TimeoutException e) {
            f.cancel(true);
            worker.shutdownNow();
            worker = newWorker(); // the hung thread is a daemon: it does not keep the JVM
            return new CaseRun(args, -1, "", "", true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("CliRun itself failed", e.getCause());
        }
    }

    void close() { worker.shutdownNow(); }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hostile-case");
            t.setDaemon(true);
            return t;
        });
    }

    /** Gives the owner write access back everywhere, so that the folder can be deleted. */
    private static void writable(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                if (Files.isSymbolicLink(p) || !(Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        || Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) continue;
                Set<PosixFilePermission> mode = EnumSet.copyOf(Files.getPosixFilePermissions(p));
                mode.addAll(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
                if (Files.isDirectory(p)) mode.add(PosixFilePermission.OWNER_EXECUTE);
                Files.setPosixFilePermissions(p, mode);
            }
        }
    }
}
