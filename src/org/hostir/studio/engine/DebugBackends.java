package org.hostir.studio.engine;

import java.util.Optional;

import org.hostir.studio.engine.RunRequest.BackendChoice;

/**
 * Which backend the debugger (Debug As, {@code hirstudio debug}) runs on: the CPU backend, whose streams say when
 * they are at rest ({@code Backend.atRest}), so that a stop depends on the program and the commands, never on
 * timing. {@code auto} means it there. The CUDA backend cannot say so: from the host, a stream whose NCCL receive
 * waits for a peer held by the debugger and a stream still running a kernel look alike (a query says only "not
 * done"), so a stop would be taken on a guess, and a rank held before a send could leave its peer's kernel
 * spinning on the GPU. The others are refused in one line that says why and what to use instead.
 */
public final class DebugBackends {
    private DebugBackends() {}

    /** Why the debugger does not run on {@code backend}, or empty when it does. */
    public static Optional<String> refusal(BackendChoice backend) {
        return switch (backend) {
            case AUTO, CPU -> Optional.empty();
            case CUDA -> Optional.of("the debugger runs on the CPU backend only: on CUDA it cannot tell a stream"
                    + " waiting for a held peer from one still running, so its stops would depend on timing; debug"
                    + " on cpu (the same program and results) and run on CUDA with Run As or hirstudio run --backend"
                    + " cuda");
            case SIM -> Optional.of("the debugger runs on the CPU backend only: sim predicts a run's time without"
                    + " running it, so there is nothing to stop; debug on cpu, predict with Run As or hirstudio run"
                    + " --backend sim");
        };
    }
}
