package org.hostir.studio.exec.debug;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.P2PSequence.Transfer;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.RankThreads;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Allowance;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * A run of every rank's program under a debugger: the ranks' hosts run on their own threads as in
 * {@link Runner} (one iteration, the same inputs), and each evaluator asks {@link Holds} before every node whether
 * to stop there. The front end sends commands (resume, step over, step into, suspend; per rank or for a group) and
 * then {@link #awaitStop()}s: a stop is taken only when the run is at rest (every host held, done issuing or
 * ended, and the backend's streams unable to move: {@link Backend#atRest()}), so what a stop shows depends on the
 * program and the commands, never on thread timing. Holding a host only delays when it issues a node, so the
 * outputs are those of a plain run. On a backend that cannot tell when it is at rest (CUDA) the run follows
 * {@link StopRule#SYNCHRONIZED}: ranks post communications only with their team, a step over a communication takes
 * the team members held at their part of it along (or is refused in one line when one is held elsewhere), and a
 * stop synchronizes the held ranks' streams before it is reported, so its tensors are final values.
 */
public final class DebugSession implements AutoCloseable {
    private final Fusion fusion;
    private final Map<Integer, HostIrContainer> programs;
    private final RunConfig config;
    private final Backend backend;
    private final Holds holds;
    private final StopRule rule;
    private final Map<Integer, DenseTensor> inputs;
    private final Map<Integer, Evaluator> evaluators = new ConcurrentHashMap<>();
    private final Map<Integer, WriteTracking> devices = new ConcurrentHashMap<>();
    private final Map<Integer, Map<Integer, DenseTensor>> outputs = new ConcurrentHashMap<>();
    private final AtomicReference<RunFailure> failure = new AtomicReference<>();
    private final Thread run;
    private volatile boolean ended;
    private volatile Optional<Validation> validation = Optional.empty();
    private Reference reference;
    private int stops;

    private DebugSession(Fusion fusion, Map<Integer, HostIrContainer> programs, RunConfig config, Backend backend,
                         List<Breakpoint> breakpoints, boolean suspendAtStart, StopRule rule) {
        this.fusion = fusion;
        this.programs = Map.copyOf(programs);
        this.config = config;
        this.backend = backend;
        this.rule = rule;
        this.holds = new Holds(programs.keySet(), breakpoints, suspendAtStart,
                new CommunicationTeam(programs, config.symbols(), config.streams()),
                rule == StopRule.SYNCHRONIZED ? new Meetings(plans(programs, config)) : null);
        this.inputs = Inputs.generate(fusion, config.symbols(), config.seed());
        this.run = Thread.ofPlatform().daemon().name("debugged run").unstarted(this::runAll);
    }

    /**
     * Starts {@code programs} of {@code fusion} on {@code backend} (the session closes it), with
     * {@code breakpoints}; {@code suspendAtStart} holds every rank before its first node.
     */
    public static DebugSession start(Fusion fusion, Map<Integer, HostIrContainer> programs, RunConfig config,
                                     Backend backend, List<Breakpoint> breakpoints, boolean suspendAtStart) {
        return start(fusion, programs, config, backend, breakpoints, suspendAtStart, StopRule.OBSERVED);
    }

    /** As above, taking stops by {@code rule} (see {@link #refusal} first for {@link StopRule#SYNCHRONIZED}). */
    public static DebugSession start(Fusion fusion, Map<Integer, HostIrContainer> programs, RunConfig config,
                                     Backend backend, List<Breakpoint> breakpoints, boolean suspendAtStart,
                                     StopRule rule) {
        DebugSession s = new DebugSession(fusion, programs, config, backend, breakpoints, suspendAtStart, rule);
        s.run.start();
        return s;
    }

    /**
     * Why {@code programs} cannot be debugged by {@code rule}, or empty: under {@link StopRule#SYNCHRONIZED} with
     * more than one rank, every rank's communications must be known before the run, to post each with its team.
     */
    public static Optional<String> refusal(Map<Integer, HostIrContainer> programs, RunConfig config, StopRule rule) {
        if (rule == StopRule.OBSERVED || programs.size() < 2) return Optional.empty();
        return plans(programs, config).entrySet().stream().filter(e -> !e.getValue().complete()).findFirst()
                .map(e -> "rank " + e.getKey() + "'s communications cannot all be known before the run (a loop"
                        + " bound or branch the debugger cannot evaluate), and on this backend a rank posts each only"
                        + " with its team; debug on cpu");
    }

    private static Map<Integer, TransferPlan> plans(Map<Integer, HostIrContainer> programs, RunConfig config) {
        Map<Integer, TransferPlan> plans = new java.util.TreeMap<>();
        programs.forEach((r, p) -> plans.put(r, TransferPlan.of(p, r, config.symbols(), config.streams())));
        return plans;
    }

    public List<Integer> ranks() { return List.copyOf(new java.util.TreeSet<>(programs.keySet())); }

    public HostIrContainer program(int rank) { return programs.get(rank); }

    public Fusion fusion() { return fusion; }

    public List<Breakpoint> breakpoints() { return holds.breakpoints(); }

    /** Replaces the breakpoints; ranks running or let go later see the new ones at their next node. */
    public void setBreakpoints(List<Breakpoint> breakpoints) { holds.setBreakpoints(breakpoints); }

    public void resume(Collection<Integer> which) { holds.release(which, Stepping.RESUME); }

    /**
     * Steps {@code which} over their nodes; under {@link StopRule#SYNCHRONIZED} with the team members held at their
     * part of a communication stepped over, or not at all: then why, in one line.
     */
    public Optional<String> stepOver(Collection<Integer> which) { return step(which, Stepping.STEP_OVER); }

    /** Steps {@code which} into their nodes, as {@link #stepOver} takes a communication's team along. */
    public Optional<String> stepInto(Collection<Integer> which) { return step(which, Stepping.STEP_INTO); }

    private Optional<String> step(Collection<Integer> which, Stepping how) {
        Set<Integer> all = new TreeSet<>(which);
        if (rule == StopRule.SYNCHRONIZED) {
            Optional<String> refused = holds.team(all, (r, id) -> StopText.node(programs.get(r), id));
            if (refused.isPresent()) return refused;
        }
        holds.release(all, how);
        return Optional.empty();
    }

    public StopRule rule() { return rule; }

    public void suspend(Collection<Integer> which) { holds.suspend(which); }

    /** Ends the run: held hosts give up, streams waiting for one another are woken by the backend's abort. */
    public void terminate() {
        holds.terminate();
        backend.abort(new RunFailure("terminated by the debugger"));
    }

    public boolean ended() { return ended; }

    /** The validation of the outputs once the run has ended (when the config asks for one and no rank failed). */
    public Optional<Validation> validation() { return validation; }

    /** Every rank's outputs by output position, once the run has ended; as {@link Runner}'s result holds them. */
    public Map<Integer, Map<Integer, DenseTensor>> outputs() { return Map.copyOf(outputs); }

    /**
     * Waits until the run is at rest and describes it. Call after a command (or after {@link #start}); a command
     * sent before the previous stop was taken is seen by that stop.
     */
    public DebugStop awaitStop() throws InterruptedException {
        while (true) {
            if (ended) return stop(List.of(), true);
            Map<Integer, RankState> states = holds.states();
            // terminated: the only stop left is the end (the woken waits would look at rest a moment longer)
            if (holds.terminated() || states.values().stream().allMatch(DebugSession::over)) {
                run.join();
                return stop(List.of(), true);
            }
            // synchronized: a rank done issuing is synchronizing its streams, which can finish (Meetings)
            if (states.containsValue(RankState.RUNNING)
                    || rule == StopRule.SYNCHRONIZED && states.containsValue(RankState.DISPATCHED)) {
                holds.awaitChange(1);
                continue;
            }
            if (rule == StopRule.SYNCHRONIZED) return synchronizedStop(states);
            Optional<List<BlockedStream>> rest = backend.atRest();
            if (rest.isPresent() && settled(states, rest.get())) return stop(rest.get(), false);
            LockSupport.parkNanos(100_000);
            if (Thread.interrupted()) throw new InterruptedException();
        }
    }

    private static boolean over(RankState s) {
        return s == RankState.FINISHED || s == RankState.FAILED || s == RankState.TERMINATED;
    }

    /** A rank done issuing whose streams are all idle is about to finish: not a stop yet. */
    private static boolean settled(Map<Integer, RankState> states, List<BlockedStream> blocked) {
        for (var e : states.entrySet()) {
            if (e.getValue() != RankState.DISPATCHED) continue;
            if (blocked.stream().noneMatch(b -> b.rank() == e.getKey())) return false;
        }
        return true;
    }

    /**
     * Every held rank's streams synchronized (they can finish: ranks post only with their team), so the stop shows
     * final values; what a rank held for its team waits for, as a blocked host ({@code stream} -1).
     */
    private DebugStop synchronizedStop(Map<Integer, RankState> states) {
        for (var e : states.entrySet()) {
            if (e.getValue() != RankState.SUSPENDED) continue;
            try {
                backend.device(e.getKey()).synchronize();
            } catch (RuntimeException failed) {
                RunFailure f = RunFailure.of(failed).within("rank " + e.getKey());
                failure.compareAndSet(null, f);
                backend.abort(f);
            }
        }
        List<BlockedStream> blocked = new ArrayList<>();
        holds.teamWaits().forEach((r, unmet) -> {
            ProgramPosition at = holds.position(r).orElseThrow();
            for (Meetings.Unmet u : unmet) blocked.add(new BlockedStream(r, -1, blockage(r, u.meeting(), at),
                    u.absent()));
        });
        return stop(blocked, false);
    }

    /** A meeting as the wait it is, at the node {@code rank} waits at; its bytes are not known here (-1). */
    private static Blockage blockage(int rank, Meeting m, ProgramPosition at) {
        int iteration = (int) at.iteration();
        return switch (m) {
            case Meeting.Pair(Transfer t) -> t.from() == rank
                    ? new Blockage.Send(t.to(), t.sequence(), -1, at.node().id(), iteration)
                    : new Blockage.Receive(t.from(), t.sequence(), -1, at.node().id(), iteration);
            case Meeting.Team team -> new Blockage.Collective(team.name(), team.team(), team.number(), -1,
                    at.node().id(), iteration);
        };
    }

    private DebugStop stop(List<BlockedStream> blocked, boolean over) {
        Map<Integer, RankState> states = holds.states();
        List<RankStop> ranks = new ArrayList<>();
        for (int r : ranks()) {
            ranks.add(new RankStop(r, states.get(r), holds.position(r), holds.reason(r),
                    blocked.stream().filter(b -> b.rank() == r).toList()));
        }
        // synchronized: stuck when only the team holds ranks (no command can let any go), each rank on a cycle too
        boolean stuck = !over && !blocked.isEmpty() && (rule == StopRule.SYNCHRONIZED ? !holds.commandHeld()
                : states.values().stream().allMatch(RankState::doneIssuing));
        Predicate<Integer> cannotPost = r -> states.getOrDefault(r, RankState.RUNNING).doneIssuing()
                || stuck && rule == StopRule.SYNCHRONIZED;
        return new DebugStop(++stops, ranks, WaitGraph.of(blocked, cannotPost), over, stuck,
                Optional.ofNullable(failure.get()).map(RuntimeException::getMessage));
    }

    /**
     * The live tensors of a rank held at this stop or done issuing (its evaluator still holds them), by IR id,
     * with the difference from the reference where the fusion has the tensor; empty for an ended rank.
     */
    public List<TensorSummary> tensors(int rank) {
        Evaluator e = evaluators.get(rank);
        RankState state = holds.state(rank);
        if (e == null || !(state == RankState.SUSPENDED || state == RankState.DISPATCHED)) return List.of();
        Device device = backend.device(rank);
        WriteTracking writes = devices.get(rank);
        List<TensorSummary> out = new ArrayList<>();
        for (var t : e.live().entrySet()) {
            TensorView tv = t.getKey();
            String label = fileTensor(tv).map(TensorView::label).orElse(tv.label());
            boolean written = writes.written(t.getValue());
            out.add(TensorSummary.of(tv, label, device.download(t.getValue()), "rank " + rank + " ("
                    + backend.name() + ")", written ? referenceShard(tv, rank) : Optional.empty(), written,
                    tolerance(tv, rank)));
        }
        return out;
    }

    /** One live tensor's values on {@code rank} now (for a table or heat map), when it has one. */
    public Optional<DenseTensor> values(int rank, int tensorId) {
        return live(rank, tensorId).map(t -> backend.device(rank).download(t.getValue()));
    }

    /**
     * Whether live tensor {@code tensorId} on {@code rank} has been written yet (an allocation whose producer has not
     * run holds no value of the program); false when the rank holds no such tensor now.
     */
    public boolean written(int rank, int tensorId) {
        return live(rank, tensorId).map(t -> devices.get(rank).written(t.getValue())).orElse(false);
    }

    /**
     * This rank's part of the unsharded reference's value of live tensor {@code tensorId} (a tensor of the fusion
     * file: the lowering's own tensors have none), for a table of differences; empty when it has none, the rank
     * holds no such tensor now, or nothing has written it yet ({@link #written}: a difference from an allocation's
     * zeros or leftover memory would show a lowering bug that is not there, as {@link #tensors} never does).
     */
    public Optional<DenseTensor> referenceValues(int rank, int tensorId) {
        return live(rank, tensorId).filter(t -> devices.get(rank).written(t.getValue()))
                .flatMap(t -> referenceShard(t.getKey(), rank));
    }

    /** Live tensor {@code tensorId} of a rank held at this stop or done issuing, with its buffer. */
    private Optional<Map.Entry<TensorView, Buffer>> live(int rank, int tensorId) {
        Evaluator e = evaluators.get(rank);
        RankState state = holds.state(rank);
        if (e == null || !(state == RankState.SUSPENDED || state == RankState.DISPATCHED)) return Optional.empty();
        return e.live().entrySet().stream().filter(t -> t.getKey().id() == tensorId).findFirst();
    }

    /** The reference's value of the fusion tensor {@code tv} stands for (same IR id), this rank's part of it. */
    private synchronized Optional<DenseTensor> referenceShard(TensorView tv, int rank) {
        DenseTensor global = reference().value(tv);
        TensorView original = fileTensor(tv).orElse(null);
        if (global == null || original == null) return Optional.empty();
        try {
            return Sharding.shard(original, global, rank);
        } catch (IllegalArgumentException notComparable) {
            return Optional.empty();
        }
    }

    /**
     * The error bound validation holds {@code tv}'s shard on {@code rank} to (the fusion's outputs have one), so that
     * a stop calls a rounding difference validation accepts equal; empty (compared exactly) for the others.
     */
    private synchronized Optional<Allowance> tolerance(TensorView tv, int rank) {
        TensorView original = fileTensor(tv).orElse(null);
        if (original == null || !fusion.outputs().contains(original)) return Optional.empty();
        try {
            return Optional.of(reference().shardTolerance(original, rank));
        } catch (IllegalArgumentException | java.util.NoSuchElementException notComparable) {
            return Optional.empty();
        }
    }

    private synchronized Reference reference() {
        if (reference == null) reference = Reference.evaluate(fusion, inputs, backend.computesWideInFloat64());
        return reference;
    }

    /** The fusion's tensor {@code tv} is (the same IR id), if the lowering did not make it. */
    private Optional<TensorView> fileTensor(TensorView tv) {
        return fusion.tensors().stream().filter(f -> f.id() == tv.id()).findFirst();
    }

    private void runAll() {
        Map<Integer, Map<Integer, Buffer>> bound = new ConcurrentHashMap<>();
        try (RankThreads hosts = new RankThreads(programs.keySet(), backend.hostThreads())) {
            hosts.onEveryRank(rank -> runRank(rank, bound));
        } finally {
            for (var e : bound.entrySet()) {
                Device device = backend.device(e.getKey());
                e.getValue().values().forEach(b -> device.free(b, device.userStream()));
            }
        }
        if (failure.get() == null && !holds.terminated() && config.validate()) {
            validation = Optional.of(OutputValidator.validate(fusion, inputs, outputs,
                    programs.size() == config.devices(), config.validation(), config.seed(),
                    backend.computesWideInFloat64()));
        }
        ended = true;
    }

    private void runRank(int rank, Map<Integer, Map<Integer, Buffer>> bound) {
        WriteTracking device = new WriteTracking(backend.device(rank));
        devices.put(rank, device);
        HostIrContainer program = programs.get(rank);
        try {
            bound.put(rank, Runner.upload(program, inputs, device));
            Evaluator e = new Evaluator(program, device, new ScalarEnv(config.symbols(), rank, config.streams()),
                    bound.get(rank), holds::before);
            evaluators.put(rank, e);
            e.dispatch();
            holds.set(rank, RankState.DISPATCHED);
            device.synchronize();
            outputs.put(rank, Runner.download(program, e, device));
            holds.set(rank, RankState.FINISHED);
        } catch (Holds.Terminated t) {
            holds.set(rank, RankState.TERMINATED);
        } catch (RuntimeException e) {
            boolean byDebugger = holds.terminated();
            if (!byDebugger) {
                RunFailure f = RunFailure.of(e).within("rank " + rank);
                failure.compareAndSet(null, f);
                backend.abort(f);
            }
            holds.set(rank, byDebugger ? RankState.TERMINATED : RankState.FAILED);
        }
    }

    @Override
    public void close() {
        if (!ended) terminate();
        try {
            run.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        backend.close();
    }
}
