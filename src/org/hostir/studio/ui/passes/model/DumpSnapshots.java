package org.hostir.studio.ui.passes.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.diff.Canonical;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Snapshot;

/**
 * A real nvFuser dump or log shown as a sequence of snapshots, one per program it holds (per pass, per rank), the
 * way the Lowering view shows passes: each snapshot's tree diff against the previous readable one (paired by
 * structure, so numbering is no change) and the texts as nvFuser printed them. {@link #compare} puts one snapshot
 * beside the Studio's lowering of a fusion. Free of SWT: the view and the tests share it.
 */
public record DumpSnapshots(String file, List<LogProgram> programs) {
    public DumpSnapshots {
        programs = List.copyOf(programs);
    }

    /** What a comparison shows: its verdict, the tree rows and the two canonical texts. */
    public record Comparison(ProgramComparison result, List<PassRow> rows, String dumpText, String studioText) {}

    public static DumpSnapshots read(String text, String file) throws EngineFailure {
        return new DumpSnapshots(file, Engine.readDumps(text, file));
    }

    public int size() { return programs.size(); }

    /** The list entry of snapshot i: its label from the log, and why it cannot be shown when it cannot. */
    public String label(int i) {
        LogProgram p = programs.get(i);
        return p.label() + (p.readable() ? "" : "  (unreadable)");
    }

    /** The snapshots whose label contains {@code filter} (case ignored), as the Lowering view filters passes. */
    public List<Integer> visible(String filter) {
        String f = filter.strip().toLowerCase(Locale.ROOT);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < programs.size(); i++) {
            if (f.isEmpty() || label(i).toLowerCase(Locale.ROOT).contains(f)) out.add(i);
        }
        return out;
    }

    /** The text of snapshot i as nvFuser printed it (in its own generation), or its reading error. */
    public String text(int i) {
        LogProgram p = programs.get(i);
        return p.readable() ? p.dump().reprint() : "line " + p.errorLine() + ": " + p.error() + "\n";
    }

    /** The text snapshot i is diffed against: the previous readable snapshot's, empty for the first. */
    public String previousText(int i) {
        int prev = previous(i);
        return prev < 0 ? "" : text(prev);
    }

    /**
     * The tree of snapshot i against the previous readable one, paired by structure; the first readable snapshot
     * shows its own tree unchanged. An unreadable snapshot has no rows.
     */
    public List<PassRow> rows(int i) {
        LogProgram p = programs.get(i);
        if (!p.readable()) return List.of();
        int prev = previous(i);
        HostIrContainer now = p.dump().program();
        HostIrContainer before = prev < 0 ? now : programs.get(prev).dump().program();
        ProgramComparison c = Engine.compare(before, now, "before", "after");
        var g = p.dump().generation();
        return PassRow.of(new Snapshot.OfHost(c.left(), g), new Snapshot.OfHost(c.right(), g));
    }

    /** Snapshot i beside the Studio's lowering of a fusion (for the same rank and options, the caller's choice). */
    public Comparison compare(int i, HostIrContainer studio, String studioLabel) {
        LogProgram p = programs.get(i);
        if (!p.readable()) throw new IllegalArgumentException("snapshot " + i + " could not be read");
        ProgramComparison c = Engine.compare(p.dump().program(), studio, file + " " + p.label(), studioLabel);
        var g = p.dump().generation();
        return new Comparison(c, PassRow.of(new Snapshot.OfHost(c.left(), g), new Snapshot.OfHost(c.right(), g)),
                HostIrPrinter.print(c.left()), HostIrPrinter.print(Canonical.of(studio)));
    }

    private int previous(int i) {
        for (int k = i - 1; k >= 0; k--) {
            if (programs.get(k).readable()) return k;
        }
        return -1;
    }
}
