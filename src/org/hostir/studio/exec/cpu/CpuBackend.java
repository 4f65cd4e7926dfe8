package org.hostir.studio.exec.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.StreamWork;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The backend where there is no GPU: D devices in this process, each stream a (virtual) worker thread, collectives and
 * transfers through an in-memory rendezvous with NCCL's matching rules. float32 arithmetic, bfloat16 and half
 * rounded on store. A run whose ranks disagree ends after {@code timeoutMillis} without progress, with a
 * diagnostic naming every waiting operation.
 */
public final class CpuBackend implements Backend {
    public static final long DEFAULT_TIMEOUT_MILLIS = 20_000;
    /** A timeout no run reaches: a debugger holds ranks on purpose and finds a deadlock itself ({@link #atRest}). */
    public static final long NO_TIMEOUT = Long.MAX_VALUE / 4_000_000L;

    private final List<CpuDevice> devices = new ArrayList<>();
    private final Blocking blocking;
    private final Rendezvous rendezvous;
    private final Mailbox mailbox;
    private final ConcurrentLinkedQueue<TimelineEvent> events = new ConcurrentLinkedQueue<>();
    private volatile long origin = System.nanoTime();

    public CpuBackend(int deviceCount) { this(deviceCount, DEFAULT_TIMEOUT_MILLIS); }

    public CpuBackend(int deviceCount, long timeoutMillis) {
        blocking = new Blocking(timeoutMillis);
        rendezvous = new Rendezvous(blocking);
        mailbox = new Mailbox(blocking);
        for (int r = 0; r < deviceCount; r++) devices.add(new CpuDevice(this, r));
    }

    @Override
    public String name() { return "cpu"; }

    /** The kernels compute double in float64 and the integers in int64 ({@code exec.tensor}), as the reference does. */
    @Override
    public boolean computesWideInFloat64() { return true; }

    @Override
    public int deviceCount() { return devices.size(); }

    @Override
    public Device device(int rank) { return devices.get(rank); }

    @Override
    public Optional<StreamWork> streamWork() {
        long run = 0;
        long posted = 0;
        for (CpuDevice d : devices) {
            for (CpuStream s : d.streams()) {
                run += s.completedSoFar();
                posted += s.enqueuedSoFar();
            }
        }
        return Optional.of(new StreamWork(run, posted));
    }

    @Override
    public Timeline timeline() {
        return Timeline.ofBackend(List.copyOf(events));
    }

    @Override
    public void resetTimeline() {
        events.clear();
        origin = System.nanoTime();
        devices.forEach(CpuDevice::resetPeak);
    }

    @Override
    public Optional<RunFailure> failure() { return Optional.ofNullable(blocking.failure()); }

    @Override
    public Optional<Throwable> bug() { return Optional.ofNullable(blocking.bug()); }

    /** Wakes every rank waiting in a collective or a receive: they give up at once instead of at the timeout. */
    @Override
    public void abort(RunFailure why) { blocking.fail(why); }

    @Override
    public void close() {
        devices.forEach(CpuDevice::stop);
        blocking.stop();
    }

    /**
     * At rest when every stream has run all its tasks or waits in a condition that does not hold, and nothing
     * started or ended a task or a wait while they were looked at: then nothing moves until a host posts more.
     */
    @Override
    public Optional<List<BlockedStream>> atRest() {
        long before = blocking.transitions();
        List<BlockedStream> blocked = new ArrayList<>();
        for (CpuDevice device : devices) {
            for (CpuStream s : device.streams()) {
                if (s.idle()) continue;
                Blocking.Waiter w = blocking.waiterOf(s.worker());
                if (w == null || w.satisfied()) return Optional.empty();
                blocked.add(new BlockedStream(device.rank(), s.index(), w.what(), waitsFor(device.rank(), w.what())));
            }
        }
        return blocking.transitions() == before ? Optional.of(blocked) : Optional.empty();
    }

    private List<Integer> waitsFor(int rank, Blockage on) {
        return switch (on) {
            case Blockage.Receive r -> List.of(r.peer());
            case Blockage.Send s -> List.of(s.peer());
            case Blockage.Collective c -> {
                var arrived = rendezvous.arrived(new Rendezvous.Key(c.team(), c.tag()));
                yield c.team().stream().filter(r -> r != rank && !arrived.contains(r)).toList();
            }
            case Blockage.OwnStream o -> List.of();
        };
    }

    /** Ranks' host threads are virtual: they only dispatch and wait, and 1,024 of them must fit on two cores. */
    @Override
    public Thread.Builder hostThreads() { return Thread.ofVirtual(); }

    Blocking blocking() { return blocking; }

    Rendezvous rendezvous() { return rendezvous; }

    Mailbox mailbox() { return mailbox; }

    long now() { return System.nanoTime() - origin; }

    long since(long nanoTime) { return Math.max(0, nanoTime - origin); }

    void record(TimelineEvent e) { events.add(e); }
}
