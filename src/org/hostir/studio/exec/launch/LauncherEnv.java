package org.hostir.studio.exec.launch;

import java.util.Map;

import org.hostir.studio.exec.ExecutionException;

/**
 * This process's place among the processes an existing launcher started, one per GPU, from the variables
 * torchrun sets: {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK} (the GPU of this host to drive),
 * {@code MASTER_ADDR} and {@code MASTER_PORT}. Rank 0 serves the NCCL unique ids on {@link #idPort()}: the
 * override {@code HIRSTUDIO_ID_PORT}; else, under torchrun, whose agent's store already listens on MASTER_PORT
 * ({@code TORCHELASTIC_USE_AGENT_STORE=True}), {@code 16384 + MASTER_PORT % 16384}: below Linux's ephemeral range
 * (32768-60999), where the store's own connections take the ports next to MASTER_PORT; else MASTER_PORT itself.
 */
public record LauncherEnv(int rank, int worldSize, int localRank, String masterAddr, int masterPort, int idPort) {
    public static final String[] VARIABLES = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"};

    public LauncherEnv {
        if (worldSize < 1) throw new IllegalArgumentException("worldSize must be >= 1");
        if (rank < 0 || rank >= worldSize) throw new IllegalArgumentException("rank outside 0..worldSize-1");
    }

    /** True where a launcher set at least RANK and WORLD_SIZE. */
    public static boolean present(Map<String, String> env) {
        return env.containsKey("RANK") && env.containsKey("WORLD_SIZE");
    }

    /** The launcher's variables, checked; a missing or malformed one is named in the exception's message. */
    public static LauncherEnv parse(Map<String, String> env) {
        int world = integer(env, "WORLD_SIZE", 1, 1 << 20);
        int rank = integer(env, "RANK", 0, world - 1);
        int local = env.containsKey("LOCAL_RANK") ? integer(env, "LOCAL_RANK", 0, 1023) : rank;
        String addr = env.get("MASTER_ADDR");
        if (addr == null || addr.isBlank()) {
            if (world > 1) throw missing("MASTER_ADDR", "the host of rank 0, e.g. 127.0.0.1");
            addr = "127.0.0.1";
        }
        int port = env.containsKey("MASTER_PORT") || world > 1 ? integer(env, "MASTER_PORT", 1, 65535) : 29500;
        int idPort;
        if (env.containsKey("HIRSTUDIO_ID_PORT")) {
            idPort = integer(env, "HIRSTUDIO_ID_PORT", 1, 65535);
        } else if ("true".equalsIgnoreCase(env.getOrDefault("TORCHELASTIC_USE_AGENT_STORE", ""))) {
            idPort = 16384 + port % 16384;
            if (idPort == port) idPort = 16384 + (port + 1) % 16384;
        } else {
            idPort = port;
        }
        return new LauncherEnv(rank, world, local, addr.strip(), port, idPort);
    }

    private static int integer(Map<String, String> env, String name, int min, int max) {
        String v = env.get(name);
        if (v == null || v.isBlank()) throw missing(name, null);
        long n;
        try {
            if (!v.strip().matches("-?[0-9]+")) throw new NumberFormatException(); // ASCII digits, no "+8"
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new ExecutionException("launcher: " + name + "=" + v + " is not an integer");
        }
        if (n < min || n > max) {
            throw new ExecutionException("launcher: " + name + "=" + v + " is outside " + min + ".." + max
                    + (name.equals("RANK") ? " (WORLD_SIZE=" + env.get("WORLD_SIZE") + ")" : ""));
        }
        return (int) n;
    }

    private static ExecutionException missing(String name, String hint) {
        return new ExecutionException("launcher: " + name + " is not set (one process per GPU needs "
                + String.join(", ", VARIABLES) + " as torchrun sets them" + (hint == null ? "" : "; " + name + " is "
                + hint) + ")");
    }

    public String describe() {
        return "rank " + rank + " of " + worldSize + " (GPU " + localRank + "), rank 0 at " + masterAddr + ":" + idPort;
    }
}
