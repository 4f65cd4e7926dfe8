package org.hostir.studio.exec.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.CollectivePriority;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.exec.launch.UniqueIdExchange;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The local GPUs of this process, one host thread per GPU (the Runner's rank threads), NCCL communicators from
 * ncclCommInitAll. Host waits poll the streams so that a rank that fails, or a communication that never
 * matches, ends the run within the timeout: the communicators are aborted and the diagnostic names the rank and
 * the stream it was waiting on, instead of hanging in cuStreamSynchronize.
 */
public final class CudaBackend implements Backend {
    private final Driver driver;
    private final Nccl nccl;
    private final Cublas cublas;
    private final CublasLt cublasLt;
    private volatile boolean useLt = true;
    /** The workspace limit cuBLASLt's heuristic is told (and a launch passes); plans are made per limit. */
    private volatile long ltWorkspaceLimit = CublasLt.WORKSPACE;
    private final List<CudaDevice> devices = new ArrayList<>();
    private final Map<List<Integer>, long[]> communicators = new java.util.concurrent.ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<TimelineEvent> hostEvents = new ConcurrentLinkedQueue<>();
    private final long timeoutMillis;
    private final CopyEngine copyEngine;
    /** Launcher mode: this process drives one GPU as one rank of {@code launcher.worldSize()}; null otherwise. */
    private final LauncherEnv launcher;
    private final UniqueIdExchange ids;
    /** The number of GPUs the ranks share ({@link #sharingGpus}), or 0 where each rank has its own. */
    private final int sharedGpus;
    private volatile RunFailure failure;
    private volatile boolean timing = true;
    private volatile boolean hostTiming = true;
    private volatile P2pProtocol p2pProtocol = P2pProtocol.GET;
    private volatile long origin = System.nanoTime();

    /** True where JCuda, a CUDA driver and at least {@code devices} GPUs are present. */
    public static boolean available(int devices) {
        return localDeviceCount() >= devices;
    }

    public static int localDeviceCount() {
        try {
            return Driver.deviceCountOrZero();
        } catch (LinkageError e) { // JCuda's classes are not on the class path
            return 0;
        }
    }

    /** Whether JCuda and its driver binding's JNI library are on the class path (the product's smoke test asks). */
    public static boolean driverBindingPackaged() {
        try {
            return Driver.bindingPackaged();
        } catch (LinkageError e) {
            return false;
        }
    }

    private static Driver openDriver() {
        try {
            return Driver.get();
        } catch (LinkageError e) {
            throw new ExecutionException("the CUDA backend needs JCuda 12.6.0 (org.jcuda:jcuda) on the class path: "
                    + e.getMessage());
        }
    }

    public CudaBackend(int deviceCount, long timeoutMillis) { this(deviceCount, timeoutMillis, false, false); }

    /**
     * With {@code copyEngineP2p}, point-to-point transfers are copy-engine peer copies ordered by cross-device
     * events (Host IR's {@code backend=cuda}) instead of NCCL send/recv; collectives stay on NCCL.
     */
    public CudaBackend(int deviceCount, long timeoutMillis, boolean copyEngineP2p) {
        this(deviceCount, timeoutMillis, copyEngineP2p, false);
    }

    /**
     * {@code ranks} ranks on however many GPUs this machine has, round robin (rank r on GPU r mod n), for
     * developing multi-rank programs where there are fewer GPUs than ranks: point-to-point goes through the copy
     * engines (within one GPU a device-to-device copy); NCCL, which refuses two ranks on one GPU, is not used, so
     * a collective of more than one rank ends the run with a diagnostic. Device times are not those of one GPU
     * per rank; host dispatch is.
     */
    public static CudaBackend sharingGpus(int ranks, long timeoutMillis) {
        return new CudaBackend(ranks, timeoutMillis, true, true);
    }

    private CudaBackend(int deviceCount, long timeoutMillis, boolean copyEngineP2p, boolean share) {
        this.copyEngine = copyEngineP2p ? new CopyEngine(timeoutMillis) : null;
        this.launcher = null;
        this.ids = null;
        this.driver = openDriver();
        int have = driver.deviceCount();
        if (have < deviceCount && !(share && have > 0)) {
            throw new ExecutionException("the CUDA backend needs " + deviceCount + " GPUs, this machine has " + have);
        }
        this.timeoutMillis = timeoutMillis;
        this.sharedGpus = deviceCount > have ? have : 0;
        Nvrtc nvrtc = new Nvrtc();
        this.cublas = new Cublas();
        this.cublasLt = new CublasLt();
        this.nccl = deviceCount > 1 && sharedGpus == 0 ? new Nccl() : null;
        for (int r = 0; r < deviceCount; r++) devices.add(new CudaDevice(this, r, r % have, nvrtc));
        // peer access both ways, so copy-engine copies and NCCL's P2P transport go over NVLink, not the host
        for (CudaDevice a : devices) {
            for (CudaDevice b : devices) {
                if (a.context != b.context) {
                    a.current();
                    driver.enablePeerAccess(b.context);
                }
            }
        }
        if (nccl != null) communicators.put(world(), nccl.initAll(IntStream.range(0, deviceCount).toArray()));
        CudaDevice.forgetCurrent();
        resetTimeline();
    }

    /**
     * Launcher mode: one process per GPU, started by torchrun or another launcher ({@link LauncherEnv}). This
     * process drives GPU {@code LOCAL_RANK} as rank {@code RANK}; rank 0 serves the NCCL unique ids over TCP and
     * every team's communicator comes from ncclCommInitRank (the world's at once, so a process whose peers never
     * start fails here, within the timeout, with a diagnostic).
     */
    public static CudaBackend launched(LauncherEnv env, long timeoutMillis) {
        return new CudaBackend(env, timeoutMillis);
    }

    private CudaBackend(LauncherEnv env, long timeoutMillis) {
        this.copyEngine = null;
        this.sharedGpus = 0;
        this.launcher = env;
        this.driver = openDriver();
        this.timeoutMillis = timeoutMillis;
        int have = driver.deviceCount();
        if (env.localRank() >= have) {
            throw new ExecutionException("launcher: LOCAL_RANK=" + env.localRank() + " but this process sees " + have
                    + " GPU" + (have == 1 ? "" : "s") + " (CUDA_VISIBLE_DEVICES=" + System.getenv("CUDA_VISIBLE_DEVICES")
                    + ")");
        }
        this.cublas = new Cublas();
        this.cublasLt = new CublasLt();
        this.nccl = env.worldSize() > 1 ? new Nccl() : null;
        devices.add(new CudaDevice(this, env.rank(), env.localRank(), new Nvrtc()));
        this.ids = UniqueIdExchange.open(env, nccl == null ? () -> new byte[Nccl.UNIQUE_ID_BYTES] : nccl::uniqueId,
                timeoutMillis);
        if (nccl != null) {
            try {
                createCommunicators(world());
            } catch (RuntimeException e) {
                ids.close();
                throw e;
            }
        }
        CudaDevice.forgetCurrent();
        resetTimeline();
    }

    /** Launcher mode's place of this process, or empty where one process drives all local GPUs. */
    public Optional<LauncherEnv> launcher() { return Optional.ofNullable(launcher); }

    private List<Integer> world() {
        return IntStream.range(0, launcher != null ? launcher.worldSize() : devices.size()).boxed().toList();
    }

    @Override
    public String name() {
        return (copyEngine == null ? "cuda" : "cuda (copy-engine p2p)") + (sharedGpus == 0 ? ""
                : ", " + devices.size() + " ranks on " + sharedGpus + " GPU" + (sharedGpus == 1 ? "" : "s"));
    }

    @Override
    public int deviceCount() { return devices.size(); }

    @Override
    public Device device(int rank) { return cudaDevice(rank); }

    @Override
    public boolean runsRank(int rank) { return launcher == null ? rank < devices.size() : rank == launcher.rank(); }

    /** Matmuls this process's devices ran through cuBLASLt's fp8 path so far (fp8 operands not widened). */
    public long fp8Gemms() {
        return devices.stream().mapToLong(CudaDevice::fp8Gemms).sum();
    }

    /** grouped_mm ops this process's devices ran as one cublasGemmGroupedBatchedEx call so far (GroupedGemm). */
    public long groupedGemms() {
        return devices.stream().mapToLong(CudaDevice::groupedGemms).sum();
    }

    /** Whether this cuBLAS has cublasGemmGroupedBatchedEx (12.5 and later). */
    public boolean hasGroupedGemm() { return cublas.hasGroupedGemm(); }

    /**
     * Double moves between host and GPU as float64, the integers as themselves; all compute in double
     * (KernelCode.wide, cuBLAS 64F).
     */
    @Override
    public boolean computesWideInFloat64() { return true; }

    /** Allreduces and ReduceScatters this process's devices posted on the copy engines (not NCCL) so far. */
    public long copyEngineCollectives() {
        return devices.stream().mapToLong(CudaDevice::copyEngineCollectives).sum();
    }

    /** The CUDA device of {@code rank}; benchmarks reach below the Device interface through {@link CudaProbe}. */
    CudaDevice cudaDevice(int rank) {
        if (launcher == null) return devices.get(rank);
        if (rank != launcher.rank()) throw new ExecutionException("rank " + rank + " runs in another process; this"
                + " one is " + launcher.describe());
        return devices.get(0);
    }

    public String deviceName(int rank) { return driver.deviceName(cudaDevice(rank).ordinal); }

    public int ncclVersion() { return nccl == null ? 0 : nccl.version(); }

    Driver driver() { return driver; }

    Nccl nccl() {
        if (nccl == null) {
            throw new ExecutionException(sharedGpus > 0 ? "a communication of more than one rank through NCCL, but "
                    + devices.size() + " ranks share " + sharedGpus + " GPU" + (sharedGpus == 1 ? "" : "s")
                    + " and NCCL needs one GPU per rank (with shared GPUs only point-to-point over the copy engines"
                    + " runs: lowering option backend=cuda, allgather=p2p)"
                    : "communication needs NCCL and more than one device");
        }
        return nccl;
    }

    Cublas cublas() { return cublas; }

    /** cuBLASLt for matmul and linear, or null where the benchmark switched to cublasGemmEx. */
    CublasLt cublasLt() { return useLt ? cublasLt : null; }

    /** Matmul and linear through cuBLASLt (the default: heuristics, 32 MiB workspace, bias epilogue) or GemmEx. */
    public void useCublasLt(boolean on) { useLt = on; }

    /**
     * The workspace limit given to cuBLASLt's heuristic and launches from now on, 0 .. {@link CublasLt#WORKSPACE}
     * bytes (the default is the whole 32 MiB; PyTorch's own cuBLASLt path, bgemm_internal_cublaslt, uses
     * CUBLASLT_WORKSPACE_SIZE, 1 MiB by default). For benchmarks that compare heuristic inputs.
     */
    public void setCublasLtWorkspaceLimit(long bytes) {
        if (bytes < 0 || bytes > CublasLt.WORKSPACE) {
            throw new IllegalArgumentException("cuBLASLt workspace limit " + bytes + " outside 0 .. " + CublasLt.WORKSPACE);
        }
        ltWorkspaceLimit = bytes;
    }

    long cublasLtWorkspaceLimit() { return ltWorkspaceLimit; }

    /** cublasLtGetVersion() of the cuBLASLt this backend loaded. */
    public long cublasLtVersion() { return cublasLt.version(); }

    /** The copy-engine transport, or null where point-to-point goes through NCCL. */
    CopyEngine copyEngine() { return copyEngine; }

    boolean timingEnabled() { return timing; }

    /** Benchmarks time whole iterations; without per-op events the host issues less. */
    public void setTiming(boolean on) {
        timing = on;
        hostTiming = on;
    }

    /**
     * Host dispatch bars without CUDA events around the ops (no device bars, no overlap figures): what the host
     * costs per node when it issues no timing work, for {@code run --host-timing-only}.
     */
    /**
     * Who moves a copy-engine send/recv pair's bytes (the {@code p2pProtocol} option: nvFuser's Get, the receiver
     * pulls, or Put, the sender pushes); set before the run starts.
     */
    public void setP2pProtocol(P2pProtocol protocol) { p2pProtocol = Objects.requireNonNull(protocol); }

    P2pProtocol p2pProtocol() { return p2pProtocol; }

    public void setHostTimingOnly() {
        timing = false;
        hostTiming = true;
    }

    long worldCommunicator(int rank) { return communicator(world(), rank); }

    /** The communicator of {@code rank} in {@code team}; a team's communicators are created together, once. */
    long communicator(List<Integer> team, int rank) {
        long[] comms = communicators.get(team);
        if (comms == null) comms = createCommunicators(team);
        int i = team.indexOf(rank);
        if (i < 0) throw new ExecutionException("rank " + rank + " is not in team " + team);
        return comms[i];
    }

    private synchronized long[] createCommunicators(List<Integer> team) {
        long[] comms = communicators.get(team);
        if (comms == null && launcher != null) {
            // one communicator of the team in this process: its id from rank 0, ncclCommInitRank at our position
            comms = new long[team.size()];
            int position = team.indexOf(launcher.rank());
            if (position >= 0) {
                byte[] id = ids.id("team " + team);
                devices.get(0).current();
                comms[position] = nccl().initRank(team.size(), id, position);
            }
            CudaDevice.forgetCurrent();
            communicators.put(List.copyOf(team), comms);
        } else if (comms == null) {
            comms = nccl().initAll(team.stream().mapToInt(Integer::intValue).toArray());
            CudaDevice.forgetCurrent();
            communicators.put(List.copyOf(team), comms);
        }
        return comms;
    }

    /**
     * The host waits for {@code s}, polling, so that a failure elsewhere or the timeout ends the wait. The stream
     * is queried every few microseconds and NCCL's asynchronous errors once a millisecond (querying those on every
     * spin is needless work on NCCL's locks; querying the stream every 20 us instead of 3 us made no difference
     * to the other ranks' dispatch times on 2 x H200).
     */
    void await(CudaDevice d, CudaStream s) {
        long start = System.nanoTime();
        long nextErrorCheck = start + 1_000_000;
        while (true) {
            if (driver.streamDone(s.handle())) return;
            long now = System.nanoTime();
            if (failure != null) throw new ExecutionException(failure);
            if (now > nextErrorCheck) {
                nextErrorCheck = now + 1_000_000;
                String ncclError = asyncErrors();
                if (ncclError != null) fail("NCCL reports " + ncclError + " while rank " + d.rank
                        + " waits for stream " + s.index());
                if ((now - start) / 1_000_000 > timeoutMillis) {
                    fail("rank " + d.rank + " waited " + timeoutMillis / 1000.0 + " s for stream " + s.index()
                            + " (a communication that no other rank matched, or a hung kernel); communicators aborted");
                }
            }
            if (now - start > 20_000_000) {
                LockSupport.parkNanos(50_000); // a long wait: stop burning a core
            } else {
                long until = now + 3_000;
                while (System.nanoTime() < until) Thread.onSpinWait();
            }
        }
    }

    private String asyncErrors() {
        if (nccl == null) return null;
        for (var e : communicators.entrySet()) {
            for (long c : e.getValue()) {
                if (c == 0) continue;
                int rc = nccl.asyncError(c);
                if (rc != 0 && rc != Nccl.ncclInProgress) return "error " + rc + " on team " + e.getKey();
            }
        }
        return null;
    }

    /**
     * How many pieces a copy-engine transfer of at least 8 MiB is pulled in, each on a stream of its own (1: one
     * cuMemcpyPeerAsync, the default). A measurement knob for issue 21 (`-Dhirstudio.cuda.copyPieces=N`): one copy
     * engine moved the P2P ReduceScatter's partials more slowly than NCCL's kernels.
     */
    int copyPieces() { return COPY_PIECES; }

    private static final int COPY_PIECES = Math.max(1, Integer.getInteger("hirstudio.cuda.copyPieces", 1));

    /** Which collectives run on each device's stream of greatest priority ({@link Collectives#post}). */
    CollectivePriority collectivePriority() { return collectivePriority; }

    private final CollectivePriority collectivePriority = CollectivePriority.configured();

    /** Records the failure, aborts every communicator (which unblocks NCCL kernels) and throws. */
    synchronized void fail(String why) {
        abort(new RunFailure(why));
        throw new ExecutionException(failure);
    }

    @Override
    public synchronized void abort(RunFailure why) {
        if (failure == null) {
            failure = why;
            if (nccl != null) {
                for (long[] comms : communicators.values()) for (long c : comms) if (c != 0) nccl.abort(c);
                communicators.clear();
            }
        }
    }

    void recordHost(int rank, OpInfo info, long start, long end) {
        if (!hostTiming) return;
        hostEvents.add(new TimelineEvent(rank, TimelineEvent.HOST_STREAM, EventKind.HOST, info.name(), info.nodeId(),
                info.iteration(), Math.max(0, start - origin), Math.max(0, end - origin), info.bytes(), 0, -1, 0));
    }

    @Override
    public Timeline timeline() {
        List<TimelineEvent> events = new ArrayList<>(hostEvents);
        for (CudaDevice d : devices) {
            d.current();
            d.timing.collect(d.rank, 0, events);
        }
        CudaDevice.forgetCurrent();
        return Timeline.ofBackend(events);
    }

    @Override
    public void resetTimeline() {
        hostEvents.clear();
        origin = System.nanoTime();
        for (CudaDevice d : devices) {
            d.current();
            d.timing.reset(((CudaStream) d.userStream()).handle());
            d.resetPeak();
        }
        CudaDevice.forgetCurrent();
    }

    @Override
    public Optional<RunFailure> failure() { return Optional.ofNullable(failure); }

    @Override
    public void close() {
        if (ids != null) ids.close(); // launcher mode: rank 0 serves ids until every rank has finished
        // contexts are the devices' primary contexts and go with the process; communicators are left to exit too,
        // since ncclCommDestroy would wait for peers that may have failed
    }
}
