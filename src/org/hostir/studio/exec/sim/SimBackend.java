package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.MulticastProtocol;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.ir.host.P2pTransport;
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
    private final CudaBackendSettings cuda;
    private final boolean[] traced;
    /** Made when first asked for: a rank proved to be its representative's shifted is never walked ({@link SimRun}). */
    private SimDevice[] devices;
    /** The simulation: fed as the hosts issue ops ({@link #issued}), run as far as they allow ({@link #advance}). */
    private EventSimulation simulation;
    /**
     * Each rank's ops not yet known done, in issue order (for the report of a simulation that does not complete):
     * done ones are dropped now and then, so that a long run holds only the ops still in flight.
     */
    private List<SimOp>[] pending;
    private int[] pendingKept;
    /**
     * Done ops a rank's pending list may hold before they are dropped: at 1,024 a rank, 4,096 ranks kept up to 4 M
     * done ops (and their transfers) alive. A prune that keeps k ops comes after k + 64 more were added and walks
     * 2k + 64: at most two visits an op.
     */
    private static final int PENDING_SLACK = 64;
    /** The ops whose bars the timeline keeps: those of the simulated ranks that are, or stand for, traced ranks. */
    private List<SimOp>[] barred;
    private int[][] tracedOf;
    /** Collectives some part of which has been posted and not every part has arrived, by team and sequence. */
    private final Map<CollectiveKey, CollectiveMatch> collectives = new HashMap<>();
    /** Transfers one side has posted and the other not yet, by sender, receiver and sequence (then dropped). */
    private final LongKeyTable<Transfer> open = new LongKeyTable<>();
    private long transferCount;
    private final List<TimelineEvent> events = new ArrayList<>();
    /** Ranks r and r + period are simulated as one ({@link Symmetry}); the device count when every rank is. */
    private int period;
    /** Under a symmetry, how many representatives post a collective of a team (-1: the shift moves the team). */
    private final Map<List<Integer>, Integer> representatives = new HashMap<>();
    /** The ops' descriptions, one copy each ({@link #shared}). */
    private final Map<OpInfo, OpInfo> infos = new HashMap<>();
    private String failure;
    private double spanUs;
    /** How tokens are routed to experts: no router data exists here ({@link SimMoe}). */
    private SimMoe moe = new SimMoe(RoutingModel.DEFAULT);

    private record CollectiveKey(List<Integer> team, long sequence) {}

    /** {@code copyEngine}: point-to-point moves over the copy engines (Host IR's {@code backend=cuda}), not NCCL. */
    public SimBackend(int deviceCount, HardwareProfile profile, boolean copyEngine, IntPredicate traced) {
        this(deviceCount, profile, copyEngine ? new CudaBackendSettings(CommunicatorBackend.CUDA, P2pProtocol.GET,
                P2pTransport.COPY_ENGINE, MulticastProtocol.BATCH_MEMCPY) : CudaBackendSettings.NCCL, traced);
    }

    /**
     * {@code cuda}: the communication backend and, for {@code backend=cuda}, its transport and multicast protocol,
     * which the cost model times (docs/simulation.md, "The CUDA backend's options").
     */
    public SimBackend(int deviceCount, HardwareProfile profile, CudaBackendSettings cuda, IntPredicate traced) {
        this.profile = profile;
        this.cuda = cuda;
        this.copyEngine = cuda.cuda();
        this.traced = new boolean[deviceCount];
        for (int r = 0; r < deviceCount; r++) this.traced[r] = traced.test(r);
        reset(deviceCount);
    }

    /**
     * Starts over with fresh devices, simulating ranks r and r + {@code period} as one ({@link Symmetry}); a period
     * of the device count simulates every rank.
     */
    void reset(int period) {
        this.period = period;
        devices = new SimDevice[traced.length];
        // a collective all of whose parts have arrived is dropped from the matching table (its ops still hold it)
        simulation = new EventSimulation(profile, cuda, period, period,
                m -> collectives.remove(new CollectiveKey(m.team, m.sequence)));
        pending = newLists(period);
        pendingKept = new int[period];
        tracedOf = tracedByRepresentative();
        barred = newLists(period);
        collectives.clear();
        open.clear();
        events.clear();
        representatives.clear();
        transferCount = 0;
        failure = null;
        spanUs = 0;
        moe.clear();
    }

    int period() { return period; }

    /** Routes MoE tokens by {@code model} (before the run). */
    public SimBackend routing(RoutingModel model) {
        moe = new SimMoe(model);
        return this;
    }

    SimMoe moe() { return moe; }

    /** The routing and the tokens it dropped over capacity, or empty when the run routed none. */
    public Optional<String> routingSummary() { return moe.summary(); }

    @Override
    public String name() { return "sim"; }

    public HardwareProfile profile() { return profile; }

    @Override
    public int deviceCount() { return traced.length; }

    @Override
    public Device device(int rank) {
        if (devices[rank] == null) devices[rank] = new SimDevice(this, rank);
        return devices[rank];
    }

    @Override
    public Timeline timeline() {
        return Timeline.ofBackend(events);
    }

    /** A simulation is one iteration: there is nothing to reset between iterations that would change it. */
    @Override
    public void resetTimeline() { }

    @Override
    public Optional<RunFailure> failure() { return Optional.ofNullable(failure).map(RunFailure::new); }

    @Override
    public void close() { }

    /**
     * Simulates every op the ranks issued and keeps the traced ranks' bars; returns the predicted span in
     * microseconds: from the first dispatch to the end of the last op or host dispatch on any rank.
     */
    public double simulate() {
        failure = simulation.advance(Double.POSITIVE_INFINITY);
        if (failure == null) failure = Unfinished.describe(stillPending());
        double span = simulation.lastEndUs();
        for (SimDevice d : devices) if (d != null) span = Math.max(span, d.hostUs());
        for (List<SimOp> ops : barred) {
            for (SimOp op : ops) {
                if (op.done() && op.role() != SimOp.Role.JOIN) {
                    for (int r : tracedOf[op.rank]) bars(op, r);
                }
            }
        }
        spanUs = span;
        return span;
    }

    /** Runs the simulation up to {@code untilUs}, which no op issued from now on precedes ({@link RankLockstep}). */
    void advance(double untilUs) {
        if (failure == null) failure = simulation.advance(untilUs);
    }

    /**
     * As {@link #advance(double)}, stopping after the release of an op of a rank that {@code wakes}; returns that
     * rank, or -1 when the simulation reached {@code untilUs} (or cannot go on).
     */
    int advance(double untilUs, java.util.function.IntPredicate wakes) {
        if (failure != null) return -1;
        failure = simulation.advance(untilUs, wakes);
        return failure == null ? simulation.woke : -1;
    }

    private List<SimOp> stillPending() {
        List<SimOp> all = new ArrayList<>();
        for (List<SimOp> ops : pending) all.addAll(ops);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static List<SimOp>[] newLists(int n) {
        List<SimOp>[] lists = new List[n];
        for (int i = 0; i < n; i++) lists[i] = new ArrayList<>();
        return lists;
    }

    public double spanUs() { return spanUs; }

    /**
     * The most ops issued and not yet done at once in the last run: the simulation's working set, which grew with
     * D^2 for the all-pairs schedule before ranks blocked on their own work were parked ({@link RankLockstep}).
     */
    public long peakOpsInFlight() { return simulation.peakInFlight(); }

    /** The ops of simulated rank {@code rank} issued and not yet done. */
    int opsInFlight(int rank) { return simulation.inFlight(rank); }

    /**
     * What the matching tables still hold: collectives not every part of which has arrived, and transfers one side
     * has posted and the other not. Zero after a simulation that completed: they are dropped once matched, so that
     * a long run does not keep one entry per collective or transfer it ever saw.
     */
    public int openMatches() { return collectives.size() + open.size(); }

    /** For each simulated rank, the traced ranks it stands for (itself included), so that no op visits D / period ranks. */
    private int[][] tracedByRepresentative() {
        int[][] out = new int[period][];
        for (int rep = 0; rep < period; rep++) {
            int n = 0;
            for (int r = rep; r < traced.length; r += period) if (traced[r]) n++;
            out[rep] = new int[n];
            n = 0;
            for (int r = rep; r < traced.length; r += period) if (traced[r]) out[rep][n++] = r;
        }
        return out;
    }

    /** The bars of {@code op} on {@code rank}: its own, or a rank it stands for under a symmetry. */
    private void bars(SimOp op, int rank) {
        if (op.transfers == null) {
            events.add(new TimelineEvent(rank, op.stream, op.info.kind(), op.info.name(), op.info.nodeId(),
                    op.info.iteration(), ns(op.startUs), ns(op.endUs), op.info.bytes(), op.info.flops(),
                    op.info.peer(), 0));
            return;
        }
        int ranks = traced.length;
        for (int i = 0; i < op.transfers.length; i++) {
            Transfer x = op.transfers[i];
            boolean send = op.sends(i);
            int peer = x.peerOf(rank, send, ranks);
            // one flow per pair of ranks the transfer stands for: the sender's shift from the kept pair numbers it
            long flow = x.flowId * (ranks / period) + Math.floorMod(rank - (send ? x.from : x.to), ranks) / period;
            events.add(new TimelineEvent(rank, op.stream, EventKind.P2P, send ? "send to " + peer
                    : "recv from " + peer, op.node(i), op.info.iteration(), ns(op.startUs), ns(x.endUs),
                    send ? x.sendBytes : x.recvBytes, 0, peer, traced[peer] ? flow : 0));
        }
    }

    /**
     * {@code info}, one copy of each: the evaluator makes a new one for every op (with a new name for each coalesced
     * group, "recv 5, send 5"), and ranks of an all-pairs schedule issue D^2 ops of which there are only as many
     * kinds as nodes, iterations and peers (48 bytes an op at 1,024 ranks: 96 MiB).
     */
    OpInfo shared(OpInfo info) {
        OpInfo kept = infos.putIfAbsent(info, info);
        return kept == null ? info : kept;
    }

    boolean copyEngine() { return copyEngine; }

    CudaBackendSettings cuda() { return cuda; }

    boolean traced(int rank) { return traced[rank]; }

    /** {@code op}, enqueued on a simulated rank: kept while it may still be in flight, and for its bars if traced. */
    void add(SimOp op) {
        List<SimOp> ops = pending[op.rank];
        ops.add(op);
        if (ops.size() >= 2 * pendingKept[op.rank] + PENDING_SLACK) {
            ops.removeIf(o -> o.released);
            pendingKept[op.rank] = ops.size();
        }
        if (tracedOf[op.rank].length > 0) barred[op.rank].add(op);
    }

    /** {@code op} has been issued at its rank's host time. */
    void issued(SimOp op) { simulation.issued(op); }

    void record(TimelineEvent e) { events.add(e); }

    CollectiveMatch collective(List<Integer> team, long sequence) {
        int expected = team.size();
        if (period < traced.length) {
            expected = representatives.computeIfAbsent(team, t -> Symmetry.representatives(t, period, traced.length));
            if (expected < 0) throw new Symmetry.Broken("a collective of team " + team + ", which a shift by " + period
                    + " moves");
        }
        int parts = expected;
        return collectives.computeIfAbsent(new CollectiveKey(DeviceMesh.ids(team), sequence),
                k -> new CollectiveMatch(k.team(), k.sequence(), parts));
    }

    /**
     * The {@code sequence}-th transfer from {@code from} to {@code to}: new when this is the first side to post
     * it, else the one the other side posted, which is then matched and forgotten here (its ops keep it).
     */
    Transfer transfer(int from, int to, long sequence) {
        if (from < 0 || from >= traced.length || to < 0 || to >= traced.length) {
            throw new ExecutionException("a transfer between ranks " + from + " and " + to
                    + " of a run on " + traced.length + " devices");
        }
        if (from >= period) { // under a symmetry: the pair shifted so that the sender is a representative
            to = Math.floorMod(to - (from - from % period), traced.length);
            from = from % period;
        }
        long key = ((long) from * traced.length + to) << 32 | sequence; // sender, receiver and sequence in one long
        Transfer waiting = open.remove(key);
        if (waiting != null) return waiting;
        Transfer t = new Transfer(from, to, sequence, ++transferCount);
        open.put(key, t);
        return t;
    }

    static long ns(double us) { return Math.round(us * 1000); }
}
