package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A timeline as an SVG picture, what the Timeline view exports beside PNG: one row per rank and stream (labels at
 * the left), the bars of a time window in their kind's colour with their name as a tooltip ({@code title}), a
 * ruler of the window's start and end, and the critical path's bars outlined. Vector graphics, so a paper or an
 * issue shows it sharp at any size; text is escaped for XML.
 */
public final class TimelineSvg {
    static final int LABEL_WIDTH = 150, ROW_HEIGHT = 24, RULER_HEIGHT = 26;

    private TimelineSvg() {
    }

    /**
     * The window {@code [fromNs, toNs)} of {@code timeline} on {@code width} pixels; {@code colors} gives each kind
     * its fill ({@code #rrggbb}), {@code outlined} the bars to outline (the critical path).
     */
    public static String of(Timeline timeline, long fromNs, long toNs, int width, Map<EventKind, String> colors,
                            List<TimelineEvent> outlined) {
        return of(timeline, fromNs, toNs, width, colors, outlined, "#cc0088");
    }

    /** As above, the outline in {@code outlineColor} ({@code #rrggbb}: the theme's critical-path colour). */
    public static String of(Timeline timeline, long fromNs, long toNs, int width, Map<EventKind, String> colors,
                            List<TimelineEvent> outlined, String outlineColor) {
        if (toNs <= fromNs) throw new IllegalArgumentException("empty window");
        Map<List<Integer>, Integer> rowOf = new TreeMap<>((a, b) -> a.get(0).equals(b.get(0))
                ? Integer.compare(a.get(1), b.get(1)) : Integer.compare(a.get(0), b.get(0)));
        timeline.events().forEach(e -> rowOf.put(List.of(e.rank(), e.stream()), 0));
        int r = 0;
        for (Map.Entry<List<Integer>, Integer> row : rowOf.entrySet()) row.setValue(r++);
        int height = RULER_HEIGHT + ROW_HEIGHT * rowOf.size() + 4;
        double scale = (double) (width - LABEL_WIDTH) / (toNs - fromNs);
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">", width, height, width, height));
        out.add(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>", width, height));
        out.add(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\">%s</text><text x=\"%d\" y=\"16\" text-anchor=\"end\">%s"
                + "</text>", LABEL_WIDTH, text(TimeText.of(toNs).format(fromNs)), width - 2, text(TimeText.of(toNs).format(toNs))));
        rowOf.forEach((key, row) -> out.add(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text>",
                RULER_HEIGHT + row * ROW_HEIGHT + 16, text("rank " + key.get(0) + " "
                        + timeline.streamName(key.get(0), key.get(1))))));
        Set<TimelineEvent> path = new HashSet<>(outlined);
        for (TimelineEvent e : timeline.events()) {
            if (e.endNs() < fromNs || e.startNs() > toNs) continue;
            double x1 = LABEL_WIDTH + (Math.max(e.startNs(), fromNs) - fromNs) * scale;
            double x2 = LABEL_WIDTH + (Math.min(e.endNs(), toNs) - fromNs) * scale;
            int y = RULER_HEIGHT + rowOf.get(List.of(e.rank(), e.stream())) * ROW_HEIGHT;
            boolean thin = e.kind().bar() == EventKind.Bar.THIN;
            out.add(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s>"
                    + "<title>%s</title></rect>", x1, y + (thin ? 9 : 2), Math.max(0.5, x2 - x1), thin ? 6 : ROW_HEIGHT - 4,
                    colors.getOrDefault(e.kind(), "#888888"), path.contains(e) ? " stroke=\"" + outlineColor + "\" stroke-width=\"2\"" : "",
                    text(e.name() + " (" + e.kind().key() + ", " + TimeText.of(e.durationNs()).format(e.durationNs()) + ")")));
        }
        out.add("</svg>");
        return String.join("\n", out) + "\n";
    }

    /** Text for XML content and attributes. */
    static String text(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> b.append(c < 0x20 && c != '\t' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
