package org.hostir.studio.engine;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.RoutingModel;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.tensor.Gemm;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.lower.CudaBackendOptions;
import org.hostir.studio.ir.host.P2pTransport;

/**
 * The backend a run gets, decided before anything runs: {@code auto} takes the GPUs when this machine has one
 * per rank, else simulates the devices on the CPU; {@code cuda} needs them; ranks may share GPUs only with
 * point-to-point over the copy engines; a launcher's process is one rank on its local GPU; {@code sim} predicts
 * the run on the machine of a hardware profile (no GPU needed). A request that cannot be served is refused here
 * with a diagnostic, never half-way through a run.
 *
 * @param kind     which backend to open
 * @param gpus     the GPUs this machine has (0 when the CPU or the simulation was asked for: they are not counted)
 * @param profile  the simulated machine ({@code sim} only, else null)
 * @param routing  how a simulation routes MoE tokens to experts ({@code sim} only; {@link RoutingFiles})
 */
public record BackendPlan(Kind kind, int gpus, RunRequest request, HardwareProfile profile, RoutingModel routing) {
    public enum Kind { CPU, CUDA, CUDA_SHARING_GPUS, CUDA_LAUNCHED, SIM }

    /** Past this many ranks a simulated timeline keeps the bars of the first and last four ranks only. */
    public static final int SIM_TRACED_RANKS = 64;

    public BackendPlan(Kind kind, int gpus, RunRequest request, HardwareProfile profile) {
        this(kind, gpus, request, profile, RoutingModel.DEFAULT);
    }

    /** This plan with a simulation's routing model. */
    public BackendPlan withRouting(RoutingModel model) { return new BackendPlan(kind, gpus, request, profile, model); }

    /** Decides the backend of {@code request} on this machine. */
    public static BackendPlan choose(RunRequest request, String file) throws EngineFailure {
        boolean noGpuNeeded = request.backend() == RunRequest.BackendChoice.CPU
                || request.backend() == RunRequest.BackendChoice.SIM;
        int gpus = noGpuNeeded && !request.shareGpus() && request.launcher().isEmpty() ? 0
                : CudaBackend.localDeviceCount();
        return choose(request, gpus, file);
    }

    /** As above for a machine with {@code gpus} GPUs (tests give the count). */
    static BackendPlan choose(RunRequest request, int gpus, String file) throws EngineFailure {
        Kind kind = kind(request, gpus);
        Optional<String> blas = Gemm.problem(); // the CPU backend's and the reference's GEMM
        if (blas.isPresent()) {
            throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, "HIRSTUDIO_LIBBLAS",
                    "run.blas", blas.get(), new Subject.Setting("HIRSTUDIO_LIBBLAS"))));
        }
        Optional<Refusal> refused = simulatedOnly(request, kind).or(() -> refusal(request, kind, gpus));
        if (refused.isPresent()) throw refusedWith(refused.get(), file);
        HardwareProfile profile = kind == Kind.SIM ? profile(request.profile(), file) : null;
        return new BackendPlan(kind, gpus, request, profile);
    }

    /** The hardware profile {@code nameOrFile} names, refused with its reason when it cannot be used. */
    static HardwareProfile profile(String nameOrFile, String file) throws EngineFailure {
        return ProfileFiles.resolve(nameOrFile, file);
    }

    private static EngineFailure refusedWith(Refusal r, String file) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, r.flag(),
                "run.backend", r.message(), new Subject.Setting(r.flag()))));
    }

    private static Kind kind(RunRequest r, int gpus) {
        if (r.shareGpus()) return Kind.CUDA_SHARING_GPUS;
        if (r.launcher().isPresent()) return Kind.CUDA_LAUNCHED;
        return switch (r.backend()) {
            case CPU -> Kind.CPU;
            case SIM -> Kind.SIM;
            case CUDA -> Kind.CUDA;
            case AUTO -> gpus >= r.devices() ? Kind.CUDA : Kind.CPU;
        };
    }

    private record Refusal(String flag, String message) {}

    /**
     * The CUDA backend's choices that only the simulator models: the TMA transport, and the multicast protocols
     * that need NVLink multicast (NVLS), which stays off on the shared GPU machines (docs/simulation.md).
     */
    private static Optional<Refusal> simulatedOnly(RunRequest r, Kind kind) {
        if (kind == Kind.CPU || kind == Kind.SIM) return Optional.empty();
        CudaBackendSettings cuda = CudaBackendOptions.of(r.options());
        if (cuda.transport() == P2pTransport.TMA) return Optional.of(new Refusal("--option p2pTransport", "the CUDA"
                + " backend moves send/recv on the copy engine only; p2pTransport=Tma is modelled by --backend sim"));
        if (cuda.cuda() && cuda.multicast().needsMulticast()) return Optional.of(new Refusal("--option"
                + " multicastProtocol", "NVLink multicast (NVLS) is off on the shared GPU machines and the CUDA backend"
                + " has no multicast path; multicastProtocol=" + r.options().asMap().get(CudaBackendOptions
                .MULTICAST_PROTOCOL.key()) + " is modelled by --backend sim"));
        return Optional.empty();
    }

    private static Optional<Refusal> refusal(RunRequest r, Kind kind, int gpus) {
        boolean copyEngine = r.options().backend() == CommunicatorBackend.CUDA;
        String noGpu = gpus == 0 ? "no CUDA device found" : "--devices " + r.devices() + " but this machine has " + gpus
                + " GPU" + (gpus == 1 ? "" : "s");
        return switch (kind) {
            case CPU, SIM -> Optional.empty();
            case CUDA -> gpus < r.devices() ? Optional.of(new Refusal("--backend cuda", noGpu)) : Optional.empty();
            case CUDA_SHARING_GPUS -> r.launcher().isPresent() || r.backend() == RunRequest.BackendChoice.CPU
                    || r.backend() == RunRequest.BackendChoice.SIM
                    ? Optional.of(new Refusal("--share-gpus", "shares GPUs among the ranks of one process on the"
                            + " CUDA backend (not with --launcher, --backend cpu or --backend sim)"))
                    : gpus == 0 ? Optional.of(new Refusal("--share-gpus", noGpu))
                    : !copyEngine && gpus < r.devices() ? Optional.of(new Refusal("--share-gpus", "ranks that share a"
                            + " GPU cannot communicate through NCCL; add --option backend=cuda (point-to-point over"
                            + " the copy engines)"))
                    : Optional.empty();
            case CUDA_LAUNCHED -> r.backend() == RunRequest.BackendChoice.SIM ? Optional.of(new Refusal("--launcher",
                    "a simulation runs every rank in one process (leave --launcher out)"))
                    : gpus == 0 ? Optional.of(new Refusal("--launcher", "no CUDA device found"))
                    : copyEngine && r.devices() > 1 ? Optional.of(new Refusal("--launcher", "backend=cuda (copy-engine"
                            + " P2P) needs the ranks in one process; one process per GPU communicates through NCCL"
                            + " (leave the backend option out)"))
                    : Optional.empty();
        };
    }

    /** Opens the backend as the strategy that runs on it; the caller closes it. */
    public RunStrategy open() {
        long timeout = request.timeoutMillis();
        boolean copyEngine = request.options().backend() == CommunicatorBackend.CUDA;
        return switch (kind) {
            case CPU -> RunStrategy.on(new CpuBackend(request.devices(), timeout));
            case CUDA -> RunStrategy.on(timed(new CudaBackend(request.devices(), timeout, copyEngine)));
            case CUDA_SHARING_GPUS -> RunStrategy.on(timed(CudaBackend.sharingGpus(request.devices(), timeout)));
            case CUDA_LAUNCHED -> RunStrategy.on(timed(CudaBackend.launched(request.launcher().orElseThrow(), timeout)));
            case SIM -> RunStrategy.simulated(new SimBackend(request.devices(), profile,
                    CudaBackendOptions.of(request.options()),
                    rank -> request.devices() <= SIM_TRACED_RANKS || rank < 4 || rank >= request.devices() - 4)
                    .routing(routing));
        };
    }

    private CudaBackend timed(CudaBackend backend) {
        backend.setP2pProtocol(request.options().get(CudaBackendOptions.P2P_PROTOCOL));
        if (request.hostTimingOnly()) backend.setHostTimingOnly();
        return backend;
    }

    /**
     * {@code cpu}, {@code cuda}, or {@code sim (predicted for PROFILE)}; with {@code auto: N GPUs found} when the
     * choice was the machine's.
     */
    public String describe() {
        String name = switch (kind) {
            case CPU -> "cpu";
            case CUDA, CUDA_SHARING_GPUS, CUDA_LAUNCHED -> "cuda";
            case SIM -> "sim (predicted for profile " + profile.name() + ")";
        };
        return request.backend() == RunRequest.BackendChoice.AUTO
                ? name + " (auto: " + gpus + " GPU" + (gpus == 1 ? "" : "s") + " found)" : name;
    }
}
