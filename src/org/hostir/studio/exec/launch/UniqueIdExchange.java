package org.hostir.studio.exec.launch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.hostir.studio.exec.ExecutionException;

/**
 * Hands the NCCL unique id of each team from rank 0 to the other processes over plain TCP: rank 0 listens on
 * {@link LauncherEnv#idPort()} and creates an id per team key on first request (its own requests included);
 * the others connect to MASTER_ADDR, retrying until rank 0 listens or the timeout has passed, and then fail with
 * a diagnostic that names the address, the port and the last error. A request carries the sender's rank and
 * WORLD_SIZE, so processes started with different launcher settings are told apart. At the end each other rank
 * says goodbye and rank 0 waits (within the timeout) for all of them before it stops serving, so that a team
 * created late still finds rank 0.
 *
 * <p>Wire format, big-endian: request {@code int magic, int version, int worldSize, int rank, UTF kind ("id" or
 * "bye"), UTF key}; reply {@code int status (0 ok), then int length and the id's bytes, or UTF message}.
 */
public final class UniqueIdExchange implements AutoCloseable {
    static final int MAGIC = 0x48495253; // "HIRS"
    static final int VERSION = 1;

    private final LauncherEnv env;
    private final long timeoutMillis;
    private final ServerSocket server;
    private final Supplier<byte[]> newId;
    private final Map<String, byte[]> ids = new ConcurrentHashMap<>();
    private final Set<Integer> goodbyes = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private UniqueIdExchange(LauncherEnv env, long timeoutMillis, ServerSocket server, Supplier<byte[]> newId) {
        this.env = env;
        this.timeoutMillis = timeoutMillis;
        this.server = server;
        this.newId = newId;
    }

    /**
     * Rank 0 starts serving ids made by {@code newId} (ncclGetUniqueId); other ranks get a client. Rank 0 fails
     * at once, with a diagnostic, when its port is taken.
     */
    public static UniqueIdExchange open(LauncherEnv env, Supplier<byte[]> newId, long timeoutMillis) {
        if (env.rank() != 0 || env.worldSize() == 1) return new UniqueIdExchange(env, timeoutMillis, null, newId);
        ServerSocket s;
        try {
            s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(env.idPort()), Math.max(50, env.worldSize()));
        } catch (IOException e) {
            throw new ExecutionException("launcher: rank 0 cannot listen on port " + env.idPort()
                    + " for the NCCL unique ids: " + e.getMessage() + " (another process holds it; choose another"
                    + " MASTER_PORT, or set HIRSTUDIO_ID_PORT)");
        }
        UniqueIdExchange x = new UniqueIdExchange(env, timeoutMillis, s, newId);
        Thread.ofPlatform().daemon().name("nccl-id server").start(x::serve);
        return x;
    }

    /** The port rank 0 listens on (its actual port, where the environment asked for port 0 in tests). */
    public int localPort() { return server == null ? -1 : server.getLocalPort(); }

    /** The id of team {@code key}: rank 0's own, or fetched from rank 0. */
    public byte[] id(String key) {
        if (env.rank() == 0) return ids.computeIfAbsent(key, k -> newId.get()).clone();
        return request("id", key, timeoutMillis);
    }

    private void serve() {
        while (!closed) {
            try (Socket c = server.accept()) {
                c.setSoTimeout(5_000);
                answer(c);
            } catch (IOException e) {
                if (closed) return;
                // a stray or broken connection: keep serving the ranks
            }
        }
    }

    private void answer(Socket c) throws IOException {
        DataInputStream in = new DataInputStream(c.getInputStream());
        DataOutputStream out = new DataOutputStream(c.getOutputStream());
        if (in.readInt() != MAGIC) return; // not one of ours
        int version = in.readInt();
        int world = in.readInt();
        int rank = in.readInt();
        String kind = in.readUTF();
        String key = in.readUTF();
        String problem = version != VERSION ? "rank 0 speaks protocol " + VERSION + ", rank " + rank + " " + version
                : world != env.worldSize() ? "rank 0 has WORLD_SIZE=" + env.worldSize() + ", rank " + rank
                        + " has WORLD_SIZE=" + world
                : rank <= 0 || rank >= env.worldSize() ? "rank 0 got a request from rank " + rank + ", outside 1.."
                        + (env.worldSize() - 1) + " (two processes with the same RANK?)"
                : null;
        if (problem != null) {
            out.writeInt(1);
            out.writeUTF(problem);
        } else if (kind.equals("bye")) {
            goodbyes.add(rank);
            out.writeInt(0);
            out.writeInt(0);
        } else {
            byte[] id;
            try {
                id = ids.computeIfAbsent(key, k -> newId.get());
            } catch (RuntimeException e) {
                out.writeInt(1);
                out.writeUTF("rank 0 could not create the id: " + e.getMessage());
                out.flush();
                return;
            }
            out.writeInt(0);
            out.writeInt(id.length);
            out.write(id);
        }
        out.flush();
    }

    private byte[] request(String kind, String key, long waitMillis) {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        String last = "no answer";
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) break;
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(env.masterAddr(), env.idPort()), (int) Math.min(left, 2_000));
                s.setSoTimeout((int) Math.max(1, Math.min(left, Integer.MAX_VALUE)));
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(env.worldSize());
                out.writeInt(env.rank());
                out.writeUTF(kind);
                out.writeUTF(key);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                if (in.readInt() != 0) throw new ExecutionException("launcher: " + in.readUTF());
                byte[] id = new byte[in.readInt()];
                in.readFully(id);
                return id;
            } catch (SocketTimeoutException e) {
                last = "rank 0 accepted but did not answer";
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ExecutionException("launcher: interrupted while waiting for rank 0");
            }
        }
        throw new ExecutionException(String.format(java.util.Locale.ROOT, "launcher: rank %d of %d got no NCCL unique"
                + " id from rank 0 at %s:%d within %.1f s (last error: %s); is rank 0 running, with the same"
                + " MASTER_ADDR, MASTER_PORT and WORLD_SIZE?", env.rank(), env.worldSize(), env.masterAddr(),
                env.idPort(), waitMillis / 1000.0, last));
    }

    /** Other ranks say goodbye; rank 0 waits for every goodbye (at most the timeout) and stops serving. */
    @Override
    public void close() {
        if (closed) return;
        if (server == null) {
            closed = true;
            if (env.rank() != 0) {
                try {
                    request("bye", "", Math.min(timeoutMillis, 2_000));
                } catch (ExecutionException e) {
                    // rank 0 is gone already: nothing is left to tell it
                }
            }
            return;
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (goodbyes.size() < env.worldSize() - 1 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing a listening socket: nothing to report
        }
    }

    /** The ranks that said goodbye so far (rank 0). */
    public Set<Integer> goodbyes() { return Set.copyOf(goodbyes); }
}
