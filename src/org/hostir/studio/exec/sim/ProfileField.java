package org.hostir.studio.exec.sim;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.host.HostNode;

/**
 * Every field of a hardware profile file ({@code "format": "hirstudio-profile/1"}), declared once with its type
 * and the values it may take. The profile reader checks a file against these (an unknown field, a missing one, a
 * wrong type or a value out of range is refused with the field's name and range), and docs/simulation.md's table of
 * fields is {@link #docRow()} of each (a test holds them equal). The ranges are wide enough for any machine that
 * exists and narrow enough that a typo (a zero bandwidth, a latency of 1e300 us) does not become a prediction.
 * Rates (peaks, bandwidths, efficiency fractions) are at least {@code MIN_RATE} (0.001: 1 GFLOP/s, 1 MB/s, 0.1 %), so
 * that a tiny one (1e-300) cannot turn a kernel or a transfer into a 300-digit span either.
 *
 * <p>A path is the field's place in the object tree; {@code *} is a key from a set ({@link #keys()}: dtypes,
 * Host IR node kinds), {@code [i][0]} an element of each point of a curve.
 */
public enum ProfileField {
    FORMAT("format", Type.TEXT, 0, 0, "", "\"" + ProfileJson.FORMAT + "\""),
    NAME("name", Type.TEXT, 0, 0, "", "the profile's name, as reports print it"),
    DESCRIPTION("description", Type.TEXT, 0, 0, "", "the machine in words"),
    SOURCE("source", Type.TEXT, 0, 0, "", "where the figures come from"),
    GPUS_PER_NODE("gpusPerNode", Type.WHOLE, 1, 4096, "", "GPUs joined by NVLink; rank r is on node r / gpusPerNode"),
    PEAK_TFLOPS("gemm.peakTflops.*", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "TFLOP/s", "GEMM peak per dtype (a key is a dtype:"
            + " float, bfloat16, ...)"),
    MEMORY_GBPS("gemm.memoryGBps", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "GB/s", "memory bandwidth of memory-bound kernels"),
    LAUNCH_US("gemm.launchUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "each kernel's launch cost"),
    EFFICIENCY_SIZE("gemm.efficiency[i][0]", Type.POSITIVE, 0, 10_000_000, "", "a curve point's size, cbrt(M N K);"
            + " at least one point, sizes increasing"),
    EFFICIENCY_FRACTION("gemm.efficiency[i][1]", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 1, "", "the fraction of the peak at that size"),
    NVLINK_ALPHA("links.nvlink.alphaUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "NVLink latency per message"),
    NVLINK_BUS("links.nvlink.busGBps", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "GB/s", "NVLink bus bandwidth (as NCCL's tests"
            + " report it)"),
    NVLINK_CALL("links.nvlink.callUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "NVLink latency once per collective,"
            + " beyond alphaUs per step (optional, else 0)"),
    NETWORK_ALPHA("links.network.alphaUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "network latency per message"),
    NETWORK_BUS("links.network.busGBps", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "GB/s", "network bus bandwidth"),
    NETWORK_CALL("links.network.callUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "network latency once per"
            + " collective, beyond alphaUs per step (optional, else 0)"),
    COPY_ENGINE_ALPHA("links.copyEngine.alphaUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "copy-engine latency per"
            + " transfer"),
    COPY_ENGINE_BUS("links.copyEngine.busGBps", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "GB/s", "copy-engine bandwidth"),
    NCCL_P2P_ALPHA("links.ncclP2p.alphaUs", Type.NON_NEGATIVE, 0, 1_000_000, "us", "NCCL send/recv latency per"
            + " transfer within a node (optional, with busGBps: without them NVLink's)"),
    NCCL_P2P_BUS("links.ncclP2p.busGBps", Type.NON_NEGATIVE,
            Bounds.MIN_RATE, 100_000, "GB/s", "NCCL send/recv bandwidth of one transfer within a node (optional)"),
    COMPUTE_SLOWDOWN("contention.computeSlowdown", Type.NON_NEGATIVE, 0, 10, "", "how much longer a kernel runs"
            + " while an NCCL kernel overlaps it (0.15: 15 %)"),
    NCCL_SLOWDOWN("contention.ncclSlowdown", Type.NON_NEGATIVE, 0, 10, "", "how much longer an NCCL kernel runs while"
            + " a kernel overlaps it"),
    DISPATCH_DEFAULT("dispatchUs.default", Type.NON_NEGATIVE, 0, 1_000_000, "us", "host time to dispatch a Host IR"
            + " node of a kind not listed"),
    DISPATCH_NODE("dispatchUs.*", Type.NON_NEGATIVE, 0, 1_000_000, "us", "host time per node of that kind (a key is"
            + " a Host IR node kind: HostOp, Communication, ...)");

    /**
     * What a field holds: text, a whole number, or a number greater than its minimum ({@code POSITIVE}) or at least
     * its minimum ({@code NON_NEGATIVE}, whose minimum is 0 or, for a rate, {@code MIN_RATE}).
     */
    public enum Type { TEXT, WHOLE, POSITIVE, NON_NEGATIVE }

    /** The least rate a profile may give (see the class comment); in a holder, as enum constants come first. */
    private static final class Bounds {
        static final double MIN_RATE = 0.001;
    }

    private final String path;
    private final Type type;
    private final double min;
    private final double max;
    private final String unit;
    private final String help;

    ProfileField(String path, Type type, double min, double max, String unit, String help) {
        this.path = path;
        this.type = type;
        this.min = min;
        this.max = max;
        this.unit = unit;
        this.help = help;
    }

    public String path() { return path; }

    public Type type() { return type; }

    /** The field's key within its object ({@code *} for a key from {@link #keys()}). */
    public String key() { return path.substring(path.lastIndexOf('.') + 1); }

    /** The path of the object holding the field ({@code ""} at the top). */
    public String parent() { return path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : ""; }

    /** The keys {@code *} stands for: dtype names for GEMM peaks, Host IR node kinds for dispatch costs. */
    public List<String> keys() {
        return switch (this) {
            case PEAK_TFLOPS -> Arrays.stream(DataType.values()).map(DataType::fileName).toList();
            case DISPATCH_NODE -> Arrays.stream(HostNode.class.getPermittedSubclasses()).map(Class::getSimpleName)
                    .toList();
            case FORMAT, NAME, DESCRIPTION, SOURCE, GPUS_PER_NODE, MEMORY_GBPS, LAUNCH_US, EFFICIENCY_SIZE,
                 EFFICIENCY_FRACTION, NVLINK_ALPHA, NVLINK_BUS, NVLINK_CALL, NETWORK_ALPHA, NETWORK_BUS, NETWORK_CALL,
                 COPY_ENGINE_ALPHA,
                 COPY_ENGINE_BUS, NCCL_P2P_ALPHA, NCCL_P2P_BUS, COMPUTE_SLOWDOWN, NCCL_SLOWDOWN, DISPATCH_DEFAULT -> List.of();
        };
    }

    /** Whether a profile may leave the field out (older profiles have no NCCL send/recv link, no per-call latency). */
    public boolean optional() {
        return this == NCCL_P2P_ALPHA || this == NCCL_P2P_BUS || this == NVLINK_CALL || this == NETWORK_CALL;
    }

    /** The allowed values in words: {@code (0, 100000] GB/s}. */
    public String range() {
        return switch (type) {
            case TEXT -> "text";
            case WHOLE -> "a whole number in " + number(min) + ".." + number(max);
            case POSITIVE -> "(" + number(min) + ", " + number(max) + "]" + (unit.isEmpty() ? "" : " " + unit);
            case NON_NEGATIVE -> "[" + number(min) + ", " + number(max) + "]" + (unit.isEmpty() ? "" : " " + unit);
        };
    }

    /** Whether {@code v} is one of this numeric field's values (NaN and infinities never are). */
    public boolean accepts(double v) {
        return switch (type) {
            case TEXT -> false;
            case WHOLE -> v >= min && v <= max && v == Math.rint(v);
            case POSITIVE -> v > min && v <= max;
            case NON_NEGATIVE -> v >= min && v <= max;
        };
    }

    /** The field's row of docs/simulation.md: {@code | `path` | range | help |}. */
    public String docRow() { return "| `" + path + "` | " + range() + " | " + help + " |"; }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
