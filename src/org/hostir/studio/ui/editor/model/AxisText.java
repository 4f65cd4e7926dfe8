package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;

/**
 * The one-line notation the editor shows and accepts for axes, extents, meshes and integer lists:
 * {@code DIDx D, M, reduction K} (what {@code hirstudio check} prints, with the iter type spelled out),
 * {@code all} / {@code 0 1 2} / empty for meshes. Parsing reports a message a person can act on.
 */
public final class AxisText {
    private AxisText() {}

    /** Thrown with a message for the user: the edit is refused, the model unchanged. */
    public static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        public ParseException(String message) { super(message); }
    }

    public static String format(List<AxisSpec> axes) {
        List<String> parts = new ArrayList<>();
        for (AxisSpec a : axes) parts.add(format(a));
        return String.join(", ", parts);
    }

    /**
     * A tensor node's axes: the logical ones, then its loop steps when it has any ({@code N | outer_split 0 by D,
     * DIDx 0, allocation loop}), so a loop-split sharding shows on the graph as the Source page says it.
     */
    public static String withLoop(TensorSpec t) {
        if (t.loop().isEmpty() && !t.allocationIsLoop()) return format(t.axes());
        List<String> steps = new ArrayList<>();
        for (LoopStep s : t.loop()) {
            steps.add(switch (s) {
                case LoopStep.Split x -> (x.innerSplit() ? "split " : "outer_split ") + x.axis() + " by " + x.factor();
                case LoopStep.Merge m -> "merge " + m.axis();
                case LoopStep.Reorder r -> "reorder " + r.order();
                case LoopStep.Parallelize p -> p.type().fileName() + " " + p.axis();
                case LoopStep.Swizzle1D z -> "swizzle1d " + z.axis() + " " + z.type().fileName();
            });
        }
        if (t.allocationIsLoop()) steps.add("allocation loop");
        return format(t.axes()) + " | " + String.join(", ", steps);
    }

    /**
     * Each logical axis's parallel type as the node shows it: the file's, or the one a loop step puts on a loop
     * axis that comes from this logical axis alone (the outer part of {@code outer_split 0 by D, DIDx 0} shards
     * axis 0). Steps that do not fit the tensor are left to the file's checks: what cannot be followed is skipped.
     */
    public static List<ParallelType> shownParallel(TensorSpec t) {
        List<ParallelType> out = new ArrayList<>();
        for (AxisSpec a : t.axes()) out.add(a.parallel());
        List<List<Integer>> loop = new ArrayList<>();   // each loop axis's logical origins
        for (int i = 0; i < out.size(); i++) loop.add(List.of(i));
        for (LoopStep s : t.loop()) {
            int n = loop.size();
            switch (s) {
                case LoopStep.Split x -> { if (x.axis() < n) loop.add(x.axis() + 1, loop.get(x.axis())); }
                case LoopStep.Merge m -> {
                    if (m.axis() + 1 < n) {
                        List<Integer> both = new ArrayList<>(loop.get(m.axis()));
                        both.addAll(loop.remove(m.axis() + 1));
                        loop.set(m.axis(), both);
                    }
                }
                case LoopStep.Reorder r -> {
                    if (r.order().size() == n && r.order().stream().allMatch(i -> i >= 0 && i < n)) {
                        List<List<Integer>> old = List.copyOf(loop);
                        for (int i = 0; i < n; i++) loop.set(i, old.get(r.order().get(i)));
                    }
                }
                case LoopStep.Swizzle1D z -> { }
                case LoopStep.Parallelize p -> {
                    if (p.axis() < n && loop.get(p.axis()).size() == 1) out.set(loop.get(p.axis()).getFirst(), p.type());
                }
            }
        }
        return out;
    }

    public static String format(AxisSpec a) {
        StringBuilder b = new StringBuilder();
        if (a.parallel() != ParallelType.SERIAL) b.append(a.parallel().fileName()).append(' ');
        if (a.iter() != IterType.ITERATION) b.append(a.iter().fileName()).append(' ');
        return b.append(a.extent()).toString();
    }

    public static List<AxisSpec> parseAxes(String text) throws ParseException {
        List<AxisSpec> out = new ArrayList<>();
        if (text.isBlank()) return out;
        for (String part : text.split(",")) out.add(parseAxis(part.trim()));
        return out;
    }

    public static AxisSpec parseAxis(String text) throws ParseException {
        String[] words = text.trim().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) throw new ParseException("an axis needs an extent");
        ParallelType parallel = ParallelType.SERIAL;
        IterType iter = IterType.ITERATION;
        ExtentSpec extent = null;
        for (String w : words) {
            ParallelType p = parallel(w);
            IterType t = iter(w);
            if (p != null) parallel = p;
            else if (t != null) iter = t;
            else if (extent == null) extent = parseExtent(w);
            else throw new ParseException("'" + text + "': more than one extent");
        }
        if (extent == null) {
            if (iter != IterType.BROADCAST) throw new ParseException("'" + text + "': the axis has no extent");
            extent = ExtentSpec.size(1);
        }
        return new AxisSpec(extent, iter, parallel);
    }

    public static ExtentSpec parseExtent(String text) throws ParseException {
        String t = text.trim();
        if (t.matches("[0-9]+")) {
            try {
                long v = Long.parseLong(t);
                if (v >= 1 && v <= (1L << 40)) return ExtentSpec.size(v);
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
            throw new ParseException("an extent is between 1 and 2^40, not " + t);
        }
        if (!t.matches("[A-Za-z_][A-Za-z0-9_]*") || t.length() > 128) {
            throw new ParseException("'" + t + "' is neither a positive integer nor a symbol name");
        }
        return ExtentSpec.symbol(t);
    }

    public static ParallelType parallel(String w) {
        for (ParallelType p : ParallelType.values()) if (p.fileName().equalsIgnoreCase(w)) return p;
        return null;
    }

    public static IterType iter(String w) {
        for (IterType t : IterType.values()) if (t.fileName().equalsIgnoreCase(w)) return t;
        return null;
    }

    public static String format(MeshSpec mesh) {
        return switch (mesh) {
            case MeshSpec.AllDevices a -> "all";
            case MeshSpec.Absent a -> "";
            case MeshSpec.Devices d when d.isGrid() -> rows(d);
            case MeshSpec.Devices d -> String.join(" ", d.ids().stream().map(String::valueOf).toList());
        };
    }

    /** A 2-D mesh as its rows, {@code "0 1; 2 3"}: what {@link #parseMesh} reads back. */
    private static String rows(MeshSpec.Devices d) {
        int width = d.shape().get(1);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < d.ids().size(); i += width) {
            rows.add(String.join(" ", d.ids().subList(i, i + width).stream().map(String::valueOf).toList()));
        }
        return String.join("; ", rows);
    }

    /** {@code none}, {@code all}, device ids ({@code 0 1 2 3}) or rows of a 2-D mesh ({@code 0 1; 2 3}). */
    public static MeshSpec parseMesh(String text) throws ParseException {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty() || t.equals("none")) return MeshSpec.ABSENT;
        if (t.equals("all")) return MeshSpec.ALL;
        List<Integer> ids = new ArrayList<>();
        String[] rows = t.split(";");
        int width = -1;
        for (String row : rows) {
            int before = ids.size();
            for (int v : parseInts(row.trim())) {
                if (v < 0) throw new ParseException("device ids are >= 0");
                if (ids.contains(v)) throw new ParseException("device " + v + " is listed twice");
                ids.add(v);
            }
            int n = ids.size() - before;
            if (n == 0 || width >= 0 && n != width) throw new ParseException("the rows of a mesh have one length");
            width = n;
        }
        return rows.length == 1 ? new MeshSpec.Devices(ids) : new MeshSpec.Devices(ids, List.of(rows.length, width));
    }

    public static List<Integer> parseInts(String text) throws ParseException {
        List<Integer> out = new ArrayList<>();
        for (String w : text.replace('[', ' ').replace(']', ' ').split("[\\s,]+")) {
            if (w.isEmpty()) continue;
            try {
                out.add(Integer.parseInt(w));
            } catch (NumberFormatException e) {
                throw new ParseException("'" + w + "' is not an integer");
            }
        }
        return out;
    }

    public static List<Boolean> parseFlags(String text) throws ParseException {
        List<Boolean> out = new ArrayList<>();
        for (String w : text.replace('[', ' ').replace(']', ' ').split("[\\s,]+")) {
            if (w.isEmpty()) continue;
            switch (w.toLowerCase(Locale.ROOT)) {
                case "true", "t", "1" -> out.add(true);
                case "false", "f", "0" -> out.add(false);
                default -> throw new ParseException("'" + w + "' is not true or false");
            }
        }
        return out;
    }

    public static String formatList(List<?> values) {
        return String.join(" ", values.stream().map(String::valueOf).toList());
    }
}
