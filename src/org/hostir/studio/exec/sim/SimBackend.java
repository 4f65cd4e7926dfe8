package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The simulation backend: D simulated GPUs of a {@link HardwareProfile}, driven by the same evaluator as the real
 * backends, whose work is timed by the profile's cost models in a discrete-event simulation ({@link #simulate})
 * instead of being run. No tensor data exists. The timeline is a prediction; {@link SimRun} runs it.
 *
 * @param traced  the ranks whose bars the timeline keeps (every rank is simulated; a 1,024-rank timeline of every
 *                bar would be millions of events)
 */
public final class SimBackend implements Backend {
    private final HardwareProfile profile;
    private final boolean copyEngine;
    private final boolean[] traced;
    private final List<SimDevice> devices = new ArrayList<>();
    private final List<SimOp> ops = new ArrayList<>();
    private final Map<CollectiveKey, CollectiveMatch> collectives = new HashMap<>();
    /** Transfers one side has posted and the other not yet, by sender, receiver and sequence (then dropped). */
    private final Map<TransferKey, Transfer> open = new HashMap<>();
    private long transferCount;
    private final List<TimelineEvent> events = new ArrayList<>();
    private String failure;
    private double spanUs;

    private record CollectiveKey(List<Integer> team, long sequence) {}

    /** Sender, receiver and sequence in one long; hashed with a multiplier, as small integers collide otherwise. */
    private record TransferKey(long packed) {
        @Override
        public int hashCode() { return Long.hashCode(packed * 0x9E3779B97F4A7C15L); }
    }

    /** {@code copyEngine}: point-to-point moves over the copy engines (Host IR's {@code backend=cuda}), not NCCL. */
    public SimBackend(int deviceCount, HardwareProfile profile, boolean copyEngine, IntPredicate traced) {
        this.profile = profile;
        this.copyEngine = copyEngine;
        this.traced = new boolean[deviceCount];
        for (int r = 0; r < deviceCount; r++) this.traced[r] = traced.test(r);
        for (int r = 0; r < deviceCount; r++) devices.add(new SimDevice(this, r));
    }

    @Override
    public String name() { return "sim"; }

    public HardwareProfile profile() { return profile; }

    @Override
    public int deviceCount() { return devices.size(); }

    @Override
    public Device device(int rank) { return devices.get(rank); }

    @Override
    public Timeline timeline() {
        return Timeline.ofBackend(events);
    }

    /** A simulation is one iteration: there is nothing to reset between iterations that would change it. */
    @Override
    public void resetTimeline() { }

    @Override
    public Optional<String> failure() { return Optional.ofNullable(failure); }

    @Override
    public void close() { }

    /**
     * Simulates every op the ranks issued and keeps the traced ranks' bars; returns the predicted span in
     * microseconds: from the first dispatch to the end of the last op or host dispatch on any rank.
     */
    public double simulate() {
        failure = new EventSimulation(profile, devices.size()).run(ops);
        double span = 0;
        for (SimDevice d : devices) span = Math.max(span, d.hostUs());
        for (SimOp op : ops) {
            if (op.done()) span = Math.max(span, op.endUs);
            if (op.done() && op.role != SimOp.Role.JOIN && traced[op.rank]) bars(op);
        }
        spanUs = span;
        return span;
    }

    public double spanUs() { return spanUs; }

    private void bars(SimOp op) {
        if (op.transfers == null) {
            events.add(new TimelineEvent(op.rank, op.stream, op.info.kind(), op.info.name(), op.info.nodeId(),
                    op.info.iteration(), ns(op.startUs), ns(op.endUs), op.info.bytes(), op.info.flops(),
                    op.info.peer(), 0));
            return;
        }
        for (Transfer x : op.transfers) {
            boolean send = x.send == op && x.from == op.rank;
            events.add(new TimelineEvent(op.rank, op.stream, EventKind.P2P, send ? "send to " + x.to
                    : "recv from " + x.from, op.info.nodeId(), op.info.iteration(), ns(op.startUs), ns(x.endUs),
                    send ? x.sendBytes : x.recvBytes, 0, send ? x.to : x.from,
                    traced[send ? x.to : x.from] ? x.flowId : 0));
        }
    }

    boolean copyEngine() { return copyEngine; }

    boolean traced(int rank) { return traced[rank]; }

    void add(SimOp op) { ops.add(op); }

    void record(TimelineEvent e) { events.add(e); }

    CollectiveMatch collective(List<Integer> team, long sequence) {
        return collectives.computeIfAbsent(new CollectiveKey(List.copyOf(team), sequence),
                k -> new CollectiveMatch(k.team(), k.sequence()));
    }

    /**
     * The {@code sequence}-th transfer from {@code from} to {@code to}: new when this is the first side to post
     * it, else the one the other side posted, which is then matched and forgotten here (its ops keep it).
     */
    Transfer transfer(int from, int to, long sequence) {
        if (from < 0 || from >= devices.size() || to < 0 || to >= devices.size()) {
            throw new ExecutionException("a transfer between ranks " + from + " and " + to
                    + " of a run on " + devices.size() + " devices");
        }
        TransferKey key = new TransferKey(((long) from * devices.size() + to) << 32 | sequence);
        Transfer waiting = open.remove(key);
        if (waiting != null) return waiting;
        Transfer t = new Transfer(from, to, sequence, ++transferCount);
        open.put(key, t);
        return t;
    }

    static long ns(double us) { return Math.round(us * 1000); }
}
