package org.hostir.studio.ui.passes.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.hostir.studio.lower.PassTrace;

/**
 * The lowering view's snapshots as text: the selected one (for the clipboard), and every rank's input and
 * per-pass snapshots as files {@code rank-R/NN-Pass.txt}, for a diff tool or a bug report. Free of SWT.
 */
public final class SnapshotExport {
    private SnapshotExport() {}

    /** The printed program after the selected pass (the rank's final program when none is selected). */
    public static String text(PassEntry selected, PassTrace.RankTrace rank) {
        return selected != null ? selected.step().after().print() : rank.result().print();
    }

    /** Writes every rank's snapshots of {@code trace} (none when null) under {@code dir}; returns the file count. */
    public static int write(PassTrace trace, Path dir) throws IOException {
        if (trace == null) return 0;
        int n = 0;
        for (PassTrace.RankTrace rank : trace.ranks()) {
            Path rd = dir.resolve("rank-" + rank.rank());
            Files.createDirectories(rd);
            Files.writeString(rd.resolve("00-input.txt"), rank.input().print());
            n++;
            for (int i = 0; i < rank.steps().size(); i++) {
                PassTrace.Step s = rank.steps().get(i);
                Files.writeString(rd.resolve(fileName(i + 1, s.pass())), s.after().print());
                n++;
            }
        }
        return n;
    }

    /** {@code 05-StreamParallelType.txt}: the step's number (the input is 00) and its pass. */
    public static String fileName(int number, String pass) {
        return String.format(Locale.ROOT, "%02d-%s.txt", number, pass);
    }
}
