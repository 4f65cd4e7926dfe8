package org.hostir.studio.exec.debug;

/**
 * How a debugged run knows that it is at rest, so that a stop depends on the program and the commands, never on
 * timing. {@code OBSERVED}: the backend's streams say so ({@code Backend.atRest}, the CPU backend), and a stop shows
 * streams blocked on a held peer as they are. {@code SYNCHRONIZED}: a backend that cannot tell a stream waiting
 * for a held peer from one still running (CUDA): ranks post communications only with their whole team
 * ({@link Meetings}), so every posted stream can finish, and a stop is taken once no host runs, after
 * synchronizing every held rank's streams.
 */
public enum StopRule {
    OBSERVED, SYNCHRONIZED
}
