package org.hostir.studio.trace;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How a {@link Timeline} maps onto Chrome Trace Event fields, shared by {@link ChromeTraceWriter} and
 * {@link ChromeTraceReader} so that the two cannot drift apart.
 * <ul>
 * <li>{@code pid} = rank; {@code tid} = stream for streams {@code >= 0}. Chrome and Perfetto want non-negative
 * thread ids, so {@link TimelineEvent#HOST_STREAM} becomes {@link #HOST_TID} (any other negative stream
 * {@code s} becomes {@code HOST_TID + (-1 - s)}); the mapping is fixed, so a row keeps its tid across runs.</li>
 * <li>{@code ts}/{@code dur} are microseconds written as exact decimals ({@code 1234567 ns -> 1234.567}), so
 * nothing is lost in the text; the args repeat the nanoseconds for tools that re-serialise through doubles.</li>
 * </ul>
 */
public final class ChromeTraceConventions {
    /** The tid of the host dispatch row; far above any stream pool, and a plain non-negative int. */
    public static final int HOST_TID = 1_000_000;

    /** Keys of an X event's {@code args}. */
    public static final String ARG_NODE = "node_id", ARG_ITERATION = "iteration", ARG_BYTES = "bytes",
            ARG_FLOPS = "flops", ARG_PEER = "peer", ARG_KIND = "kind", ARG_FLOW = "flow_id", ARG_STREAM = "stream",
            ARG_START_NS = "start_ns", ARG_END_NS = "end_ns", ARG_EXCHANGE = "exchange";
    // a bar's Breakdown is an array under its unit's key (Breakdown.Unit.key) plus ARG_EXCHANGE where it names one

    /** Category and name of the send-to-receive flow events. */
    public static final String FLOW_CATEGORY = "p2p", FLOW_NAME = "send -> recv";

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private ChromeTraceConventions() {
    }

    public static int tid(int stream) {
        if (stream >= HOST_TID) throw new IllegalArgumentException("stream index " + stream + " collides with the host tid");
        return stream >= 0 ? stream : Math.addExact(HOST_TID, -1 - stream);
    }

    public static int stream(int tid) {
        return tid >= HOST_TID ? -1 - (tid - HOST_TID) : tid;
    }

    /** Nanoseconds as exact microseconds, without exponent or trailing zeros ({@code 1500 -> 1.5}). */
    public static BigDecimal micros(long ns) {
        // Parsed from the plain text: a scale >= 0, whose toString never uses exponents.
        return new BigDecimal(microsText(ns));
    }

    /** The JSON text of {@link #micros(long)}, formatted without BigDecimal (the writer's hot path). */
    public static String microsText(long ns) {
        String sign = ns < 0 ? "-" : "";
        long whole = Math.abs(ns / 1000); // no overflow: |Long.MIN_VALUE / 1000| fits
        int fraction = (int) Math.abs(ns % 1000);
        if (fraction == 0) return sign + whole;
        String digits = String.valueOf(1000 + fraction).substring(1); // zero-padded to three digits
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') end--;
        return sign + whole + "." + digits.substring(0, end);
    }

    /** Microseconds back to nanoseconds, rounding half-up below the nanosecond (foreign traces may carry more). */
    public static long nanos(BigDecimal micros) {
        return micros.multiply(THOUSAND).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    public static String category(EventKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    public static String processName(int rank) {
        return "rank " + rank;
    }
}
