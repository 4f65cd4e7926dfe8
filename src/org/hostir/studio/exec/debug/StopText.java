package org.hostir.studio.exec.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.LoopFrame;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.ir.print.IrText;

/**
 * The words of a stop, shared by {@code hirstudio debug} and the IDE's Debug and Variables views, so that both
 * show the same stops: a rank's state and node, a loop frame, a tensor, a blocked stream, a wait edge and a
 * cycle named by its Host IR nodes.
 */
public final class StopText {
    private StopText() {}

    /** {@code P2PCommunication 12}: a node by its kind and id, as the dump and the timeline name it. */
    public static String node(HostNode node) { return node.getClass().getSimpleName() + " " + node.id(); }

    /** The node of {@code id} in {@code program}, named as {@link #node}, or {@code node 12} when it has none. */
    public static String node(HostIrContainer program, int id) {
        return program.allNodes().stream().filter(n -> n.id() == id).findFirst().map(StopText::node)
                .orElse("node " + id);
    }

    /** {@code suspended at P2PCommunication 12 (breakpoint)}, {@code done issuing, waiting for its streams}, ... */
    public static String state(RankStop r) {
        return switch (r.state()) {
            case SUSPENDED -> "suspended at " + r.at().map(a -> node(a.node())).orElse("?")
                    + r.reason().map(why -> " (" + why.label() + ")").orElse("");
            case RUNNING -> "running";
            case DISPATCHED -> r.blocked().isEmpty() ? "done issuing" : "done issuing, blocked";
            case FINISHED -> "finished";
            case FAILED -> "failed";
            case TERMINATED -> "terminated";
        };
    }

    /** {@code FOR StreamIdx (ForLoop 7): StreamIdx = 1 of [0, 2)}. */
    public static String loop(LoopFrame f) {
        return "FOR " + f.loop().index().name() + " (" + node(f.loop()) + "): " + f.loop().index().name() + " = "
                + f.index() + " of [" + f.start() + ", " + f.stop() + ")";
    }

    /** The node's first line in the spelling of {@code generation}, as the Lowering view shows it. */
    public static String headline(ProgramPosition at, NvFuserGeneration generation) {
        return HostIrPrinter.headline(at.node(), generation);
    }

    /** {@code T0 'tv0' float [1, 8, 4] on {0 1}, rank 0 (cpu), 128 B: min .. max .. mean ..; first ..; ...}. */
    public static String tensor(TensorSummary t) {
        StringBuilder s = new StringBuilder(t.name());
        if (!t.label().equals(t.name())) s.append(' ').append(Texts.quote(t.label())); // a name stays one short line
        s.append(' ').append(t.dtype()).append(' ').append(t.shape());
        if (!t.mesh().isEmpty()) s.append(" on ").append(t.mesh());
        s.append(", ").append(t.device()).append(", ").append(t.bytes()).append(" B: ").append(statistics(t));
        s.append("; first ").append(t.slice().stream().map(StopText::number).collect(Collectors.joining(" ", "[",
                t.slice().size() < t.shape().stream().reduce(1L, (a, b) -> a * b) ? " ...]" : "]")));
        if (!t.written()) s.append("; not written yet");
        t.reference().ifPresent(r -> s.append("; ").append(reference(r)));
        return s.toString();
    }

    public static String statistics(TensorSummary t) {
        TensorSummary.Statistics st = t.statistics();
        return "min " + number(st.min()) + " max " + number(st.max()) + " mean " + number(st.mean())
                + (st.nonFinite() > 0 ? " (" + st.nonFinite() + " not finite)" : "");
    }

    /**
     * {@code reference: equal}, {@code reference: equal within tolerance (max |diff| 1.2e-07)} (validation's error
     * bound) or {@code reference: 3 of 32 differ, max |diff| 0.5}.
     */
    public static String reference(TensorSummary.ReferenceDifference r) {
        if (r.differing() == 0) {
            return r.maxAbs() == 0 ? "reference: equal" : "reference: equal within tolerance (max |diff| "
                    + number(r.maxAbs()) + ")";
        }
        return "reference: " + r.differing() + " of " + r.compared()
                + " differ, max |diff| " + number(r.maxAbs());
    }

    /** {@code stream 1: recv from 1 (node 12, iteration 1), waits for rank 1}; a host held for its team: {@code host: ...}. */
    public static String blocked(BlockedStream b) {
        return (b.stream() < 0 ? "host" : "stream " + b.stream()) + ": " + b.on().text() + (b.waitsFor().isEmpty() ? ""
                : ", waits for " + (b.waitsFor().size() == 1 ? "rank " : "ranks ") + IrText.ids(b.waitsFor()));
    }

    /** {@code rank 0 -> rank 1: P2PCommunication 13, send to 1 (node 13), 128 B, tag 0}. */
    public static String edge(WaitGraph.Edge e, Map<Integer, HostIrContainer> programs) {
        var on = e.why().on();
        String where = on.nodeId() >= 0 && programs.containsKey(e.from())
                ? node(programs.get(e.from()), on.nodeId()) + ", " : "";
        return "rank " + e.from() + " -> rank " + e.to() + ": " + where + on.text() + details(on);
    }

    /** {@code deadlock: rank 0 (P2PCommunication 3) -> rank 1 (P2PCommunication 3) -> rank 0}. */
    public static String cycle(WaitGraph.Cycle c, Map<Integer, HostIrContainer> programs) {
        List<String> parts = new ArrayList<>();
        for (WaitGraph.Edge e : c.edges()) {
            int id = e.why().on().nodeId();
            parts.add("rank " + e.from() + (id >= 0 && programs.containsKey(e.from())
                    ? " (" + node(programs.get(e.from()), id) + ")" : ""));
        }
        parts.add("rank " + c.edges().getFirst().from());
        return (c.deadlock() ? "deadlock: " : "cycle (a rank on it can still issue nodes): ")
                + String.join(" -> ", parts);
    }

    private static String details(Blockage on) {
        return switch (on) {
            case Blockage.Receive r -> bytes(r.bytes()) + ", tag " + r.tag();
            case Blockage.Send s -> bytes(s.bytes()) + ", tag " + s.tag();
            case Blockage.Collective c -> bytes(c.bytes()) + ", team " + IrText.ids(c.team());
            case Blockage.OwnStream o -> "";
        };
    }

    /** A wait's bytes; none where they are not known (-1: a host held for its team posts nothing yet). */
    private static String bytes(long bytes) { return bytes < 0 ? "" : ", " + bytes + " B"; }

    /** Up to 6 significant digits, no exponent for ordinary sizes, {@code nan} and {@code inf} spelled out. */
    public static String number(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        if (x == Math.rint(x) && Math.abs(x) < 1e15) return Long.toString((long) x);
        return String.format(Locale.ROOT, "%.6g", x).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2").replace(".e", "e")
                .replaceAll("\\.$", "");
    }
}
