package org.hostir.studio.engine;

import java.util.Optional;

import org.hostir.studio.engine.RunRequest.BackendChoice;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.debug.StopRule;

/**
 * Which backend the debugger (Debug As, {@code hirstudio debug}) runs on, and how it takes its stops there
 * ({@link StopRule}). The CPU backend ({@code auto} means it) says when its streams are at rest, so a stop shows
 * streams blocked on a held peer as they are. The CUDA backend cannot say so (from the host, a stream whose NCCL
 * receive waits for a held peer and one still running a kernel look alike), so there ranks post each communication
 * only with their whole team and a stop synchronizes the held ranks' streams first: nothing posted ever waits for a
 * held rank, and the tensors shown are final. Sim is refused in one line saying why.
 */
public final class DebugBackends {
    private DebugBackends() {}

    /** Why the debugger does not run on {@code backend}, or empty when it does. */
    public static Optional<String> refusal(BackendChoice backend) {
        return switch (backend) {
            case AUTO, CPU, CUDA -> Optional.empty();
            case SIM -> Optional.of("the debugger runs on the cpu and cuda backends: sim predicts a run's time"
                    + " without running it, so there is nothing to stop; debug on cpu, predict with Run As or"
                    + " hirstudio run --backend sim");
        };
    }

    /** How stops are taken on {@code backend} (one that {@link #refusal} accepts). */
    static StopRule rule(BackendChoice backend) {
        return switch (backend) {
            case AUTO, CPU -> StopRule.OBSERVED;
            case CUDA -> StopRule.SYNCHRONIZED;
            case SIM -> throw new IllegalArgumentException("the debugger does not run on sim");
        };
    }

    /** Why {@code devices} ranks cannot be debugged on {@code backend} on this machine, or empty. */
    static Optional<String> unavailable(BackendChoice backend, int devices) {
        if (backend != BackendChoice.CUDA || CudaBackend.available(devices)) return Optional.empty();
        return Optional.of("--backend cuda: " + devices + (devices == 1 ? " rank needs " : " ranks need ") + devices + " CUDA device" + (devices == 1 ? "" : "s")
                + " (NCCL puts one rank on each), this machine has " + CudaBackend.localDeviceCount());
    }

    /**
     * The backend a debugged run of {@code devices} ranks runs on. Without a watchdog on the CPU: the debugger holds
     * ranks on purpose and names a deadlock itself. With the run's on CUDA: it only ever waits for what every
     * member has posted, so a wait past it is a hang of the program.
     */
    static Backend open(BackendChoice backend, int devices) {
        return switch (backend) {
            case AUTO, CPU -> new CpuBackend(devices, CpuBackend.NO_TIMEOUT);
            case CUDA -> new CudaBackend(devices, RunRequest.DEFAULT_TIMEOUT_MILLIS);
            case SIM -> throw new IllegalArgumentException("the debugger does not run on sim");
        };
    }
}
