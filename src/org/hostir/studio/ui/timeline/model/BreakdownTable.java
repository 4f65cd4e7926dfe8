package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.ExchangeMatrix;

/**
 * The table the details panel shows under a bar that has a {@link Breakdown}: for an exchange, the rank x rank
 * bytes matrix of every rank's bars (sender rows, receiver columns, totals), its busiest link the hot cell; for a
 * grouped_mm, one row per expert with its rows and its share of the bar's work, the busiest expert hot.
 * {@code hot} is {@code {row, column}} of the cell to shade, empty if none stands out.
 */
public record BreakdownTable(String title, List<String> columns, List<List<String>> rows, Optional<int[]> hot,
                             String note) {
    public BreakdownTable {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** The table of {@code e}'s breakdown in {@code timeline}, if the bar has one. */
    public static Optional<BreakdownTable> of(Timeline timeline, TimelineEvent e) {
        Optional<Breakdown> b = e.breakdown();
        if (b.isEmpty()) return Optional.empty();
        return switch (b.get().unit()) {
            case BYTES_TO_RANK -> ExchangeMatrix.of(StackedRuns.sideOf(timeline, e), e).map(BreakdownTable::ofExchange);
            case ROWS_PER_GROUP -> Optional.of(ofGroups(b.get(), e));
        };
    }

    static BreakdownTable ofExchange(ExchangeMatrix m) {
        int n = m.ranks();
        List<String> columns = new ArrayList<>();
        columns.add("from \\ to");
        for (int to = 0; to < n; to++) columns.add("rank " + to);
        columns.add("sent");
        List<List<String>> rows = new ArrayList<>();
        for (int from = 0; from < n; from++) {
            List<String> row = new ArrayList<>();
            row.add("rank " + from);
            for (int to = 0; to < n; to++) row.add(bytes(m.bytes(from, to)));
            row.add(bytes(m.sent(from)));
            rows.add(row);
        }
        List<String> received = new ArrayList<>();
        received.add("received");
        for (int to = 0; to < n; to++) received.add(bytes(m.received(to)));
        received.add(bytes(m.total()));
        rows.add(received);
        Optional<int[]> hot = m.hottest().map(c -> new int[] {c[0], c[1] + 1});
        String note = hot.map(c -> String.format(Locale.ROOT, "busiest link: rank %d -> rank %d, %s; rank %d receives"
                + " the most, %s of %s (the diagonal is a rank's own, copied locally)", c[0], c[1] - 1,
                bytes(m.bytes(c[0], c[1] - 1)), m.hottestReceiver(), bytes(m.received(m.hottestReceiver())),
                bytes(m.total()))).orElse("no bytes leave any rank (the diagonal is a rank's own, copied locally)");
        return new BreakdownTable("Bytes sent by " + m.exchange() + " (rows send, columns receive)", columns, rows,
                hot, note);
    }

    static BreakdownTable ofGroups(Breakdown b, TimelineEvent e) {
        long total = b.total();
        List<List<String>> rows = new ArrayList<>();
        int busiest = -1;
        for (int g = 0; g < b.counts().size(); g++) {
            long n = b.counts().get(g);
            if (n > 0 && (busiest < 0 || n > b.counts().get(busiest))) busiest = g;
            // a grouped_mm's flops are 2 x rows x k x n per group: the share of rows is the share of work
            rows.add(List.of("expert " + g, String.format(Locale.ROOT, "%,d", n), percent(n, total),
                    e.flops() > 0 && total > 0 ? String.format(Locale.ROOT, "%,d", e.flops() * n / total) : "-"));
        }
        double mean = b.counts().isEmpty() ? 0 : (double) total / b.counts().size();
        String note = busiest < 0 ? "no rows in any group"
                : String.format(Locale.ROOT, "busiest: expert %d, %,d of %,d rows (%.2fx the mean of %.1f)", busiest,
                        b.counts().get(busiest), total, b.counts().get(busiest) / mean, mean);
        int hotRow = busiest;
        return new BreakdownTable("Work per expert of " + e.name(), List.of("group", "rows", "share", "flops"), rows,
                hotRow < 0 ? Optional.empty() : Optional.of(new int[] {hotRow, 1}), note);
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f %%", 100.0 * part / whole);
    }

    /** Bytes as the details panel writes them: exact, with thousands separators. */
    static String bytes(long n) { return String.format(Locale.ROOT, "%,d B", n); }

    /** The table as text (one line a row, cells separated by two spaces): what a test or a copy reads. */
    public String text() {
        StringBuilder s = new StringBuilder(title).append('\n').append(String.join("  ", columns));
        for (List<String> row : rows) s.append('\n').append(String.join("  ", row));
        return s.append('\n').append(note).toString();
    }
}
