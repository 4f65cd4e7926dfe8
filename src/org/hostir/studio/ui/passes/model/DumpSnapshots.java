package org.hostir.studio.ui.passes.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.diff.Canonical;
import org.hostir.studio.diff.DiffNode;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.diff.ShownNodes;
import org.hostir.studio.diff.TreeDiff;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Snapshot;

/**
 * A real nvFuser dump or log shown as a sequence of snapshots, one per program it holds (per pass, per rank), the
 * way the Lowering view shows passes: each snapshot's tree diff against the previous readable one (paired by
 * structure, so numbering is no change) and the texts as nvFuser printed them. {@link #compare} puts one snapshot
 * beside the Studio's lowering of a fusion. Free of SWT: the view and the tests share it.
 */
public record DumpSnapshots(String file, List<LogProgram> programs, String skipped) {
    public DumpSnapshots {
        programs = List.copyOf(programs);
    }

    /** {@code skipped}: what else the text held, in one line ({@link DumpLog#skipped}); empty when not told. */
    public DumpSnapshots(String file, List<LogProgram> programs) { this(file, programs, ""); }

    /**
     * What a comparison shows: its verdict, the tree rows and the two canonical texts, printed in the generation the
     * comparison was made under; {@code shown} gives the Studio's nodes as its text numbers them.
     */
    public record Comparison(ProgramComparison result, List<PassRow> rows, String dumpText, String studioText,
                             NvFuserGeneration generation, ShownNodes shown) {
        /** Nothing differs but numbering. */
        public boolean equal() { return result.equal(); }

        /**
         * The verdict in one line, the differences named: the first few nodes only one side has or that differ,
         * each as its first line ({@code added: Wait(Communication 3)}), and a changed signature or HostUnits.
         */
        public String verdict(int max) {
            if (result.equal()) {
                return "structurally equal under nvFuser " + generation.label() + " (numbering aside)"
                        + (result.symbolNote().isEmpty() ? "" : "; symbols: " + result.symbolNote());
            }
            List<String> named = new ArrayList<>();
            TreeDiff t = result.tree();
            if (t.signatureChanged()) named.add("the inputs or outputs differ");
            if (t.hostUnitsChanged()) named.add("the HostUnits differ");
            collect(t.nodes(), named, shown, generation);
            String first = String.join("; ", named.subList(0, Math.min(max, named.size())));
            return "structurally different under nvFuser " + generation.label() + ": " + t.summary().describe()
                    + (first.isEmpty() ? "" : ". " + first) + (named.size() > max ? "; and " + (named.size() - max)
                    + " more" : "");
        }

        /** Each difference named by its line in the text that shows it (its own numbering). */
        private static void collect(List<DiffNode> nodes, List<String> out, ShownNodes shown, NvFuserGeneration g) {
            for (DiffNode n : nodes) {
                String line = HostIrPrinter.headline(shown.of(n.node()), g);
                switch (n.kind()) {
                    case ADDED -> out.add("only in the Studio's: " + line);
                    case REMOVED -> out.add("only in the dump: " + line);
                    case CHANGED -> out.add("differs: " + line);
                    case UNCHANGED -> { }
                }
                collect(n.children(), out, shown, g);
            }
        }
    }

    public static DumpSnapshots read(String text, String file) throws EngineFailure {
        List<LogProgram> programs = Engine.readDumps(text, file);
        return new DumpSnapshots(file, programs, DumpLog.skipped(text, programs));
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
        // rows as the texts beside them print them (the dump's own numbering), not as the canonical copies do
        ShownNodes shown = ShownNodes.sources(c);
        return PassRow.of(new Snapshot.OfHost(c.left(), g), new Snapshot.OfHost(c.right(), g), shown.function());
    }

    /** Snapshot i beside the Studio's lowering of a fusion, both printed in the snapshot's own generation. */
    public Comparison compare(int i, HostIrContainer studio, String studioLabel) {
        return compare(i, studio, studioLabel, generation(i));
    }

    /**
     * Snapshot i beside the Studio's lowering of a fusion (for the same rank and options, the caller's choice), both
     * texts printed in {@code generation}'s spelling so the text diff shows what differs, not how it is spelled.
     */
    public Comparison compare(int i, HostIrContainer studio, String studioLabel, NvFuserGeneration generation) {
        LogProgram p = programs.get(i);
        if (!p.readable()) throw new IllegalArgumentException("snapshot " + i + " could not be read");
        ProgramComparison c = Engine.compare(Engine.comparable(p.dump()), studio, file + " " + p.label(),
                studioLabel);
        Canonical.Copy studioShown = Canonical.copy(studio, 0);
        // the Studio's rows as its text prints them (from 0), not as the diff numbers them (RIGHT_NODE_BASE)
        ShownNodes shown = ShownNodes.rightAs(c, studioShown);
        return new Comparison(c, PassRow.of(new Snapshot.OfHost(c.left(), generation),
                new Snapshot.OfHost(c.right(), generation), shown.function()),
                HostIrPrinter.print(c.left(), generation), HostIrPrinter.print(studioShown.program(), generation),
                generation, shown);
    }

    /** The generation the reader detected for snapshot i (the seeds' when it could not be read). */
    public NvFuserGeneration generation(int i) {
        LogProgram p = programs.get(i);
        return p.readable() ? p.dump().generation() : NvFuserGeneration.V2025_06;
    }

    private int previous(int i) {
        for (int k = i - 1; k >= 0; k--) {
            if (programs.get(k).readable()) return k;
        }
        return -1;
    }
}
