package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;

/**
 * One rank's GPU below the {@link Device} interface, for benchmarks and probes (the {@code bench} package): raw
 * CUDA events with device-side elapsed times, cuBLAS matmuls, fills and copies issued on a chosen stream, peer
 * copies, and the driver's own calls, so that a benchmark measures a kernel or a native call without a Host IR
 * node around it. Events are the driver's handles as plain {@code long}s; buffers and streams are those the
 * rank's {@link #device()} hands out. Nothing in the engine's run path uses this class.
 */
public final class CudaProbe {
    private final CudaBackend backend;
    private final CudaDevice d;

    private CudaProbe(CudaBackend backend, CudaDevice d) {
        this.backend = backend;
        this.d = d;
    }

    /** The probe of {@code rank} of {@code backend}. */
    public static CudaProbe of(CudaBackend backend, int rank) { return new CudaProbe(backend, backend.cudaDevice(rank)); }

    /** The rank's device, as the evaluator drives it. */
    public Device device() { return d; }

    /** Whether the backend moves P2P transfers with the copy engines (Host IR's backend=cuda). */
    public boolean copyEngineP2p() { return backend.copyEngine() != null; }

    /** Makes the rank's context current on the calling thread, as the engine does before issuing work. */
    public void makeCurrent() { d.current(); }

    /** A bare cuCtxSetCurrent of the rank's context (the native call alone, for timing it). */
    public void setContext() { d.driver.setCurrent(d.context); }

    /** Every stream the rank has created so far. */
    public List<BackendStream> streams() { return List.copyOf(d.streams()); }

    /** Fills {@code b} with standard normal values from {@code seed} (as torch.randn fills a baseline's operands). */
    public void fill(Buffer b, long seed, BackendStream s) { d.ops.fill(CudaBuffer.of(b), seed, stream(s)); }

    /** {@code c = a x b} through cuBLAS(Lt), as a matmul node runs. */
    public void matmul(Buffer a, Buffer b, Buffer c, BackendStream s) {
        d.ops.matmul(CudaBuffer.of(a), CudaBuffer.of(b), CudaBuffer.of(c), stream(s));
    }

    /**
     * What {@link #matmul} of these operands runs: cuBLASLt's algorithm under the backend's current workspace
     * limit, or null where it goes to cublasGemmEx (whose choice cuBLAS does not expose).
     */
    public AlgoConfig gemmAlgorithm(Buffer a, Buffer b, Buffer c) {
        d.current();
        return d.ops.gemmAlgorithm(CudaBuffer.of(a), CudaBuffer.of(b), CudaBuffer.of(c));
    }

    private static final String SPIN = """
            __device__ __forceinline__ long long now() {
              long long t;
              asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
              return t;
            }
            extern "C" __global__ void hir_spin(long long cycles) {
              long long t0 = now();
              while (now() - t0 < cycles) { }
            }
            """;

    /**
     * One thread spinning {@code cycles} SM clocks on stream {@code s}: work queued behind it starts back to back
     * when it ends, so events around that work time the device alone, without the host's launch (as PyTorch's
     * torch.cuda._sleep lets a script do).
     */
    public void spin(long cycles, BackendStream s) {
        long fn = d.kernels.named("hir_spin", SPIN);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(ADDRESS, 1);
            params.setAtIndex(ADDRESS, 0, a.allocateFrom(JAVA_LONG, cycles));
            d.driver.launch(fn, 1, 1, stream(s).handle(), params);
        }
    }

    /** A device copy of {@code src} into {@code dst} (same element count). */
    public void copy(Buffer dst, Buffer src, BackendStream s) { d.ops.copy(CudaBuffer.of(dst), CudaBuffer.of(src), stream(s)); }

    /** {@code b} viewed with another shape of the same element count (contiguous buffers only). */
    public static Buffer reshape(Buffer b, long[] shape) { return CudaBuffer.of(b).reshape(shape); }

    /** Lets this rank's context read the peer's memory. */
    public void enablePeerAccess(CudaProbe peer) { d.driver.enablePeerAccess(peer.d.context); }

    /** Copies {@code src}, on the peer's GPU, into {@code dst} with the copy engine (cuMemcpyPeerAsync). */
    public void copyFromPeer(Buffer dst, CudaProbe peer, Buffer src, BackendStream s) {
        CudaBuffer to = CudaBuffer.of(dst);
        d.driver.copyPeerAsync(to.address(), d.context, CudaBuffer.of(src).address(), peer.d.context, to.bytes(),
                stream(s).handle());
    }

    /** An event from the rank's timing pool (returned to it when the backend's timeline is reset). */
    public long pooledEvent() { return d.timing.event(); }

    /** A new event of its own (cuEventCreate); it lives as long as the context. */
    public long newEvent() { return d.driver.createEvent(); }

    public void record(long event, BackendStream s) { d.driver.record(event, stream(s).handle()); }

    /** Stream {@code s} waits for {@code event} (cuStreamWaitEvent). */
    public void waitEvent(BackendStream s, long event) { d.driver.waitEvent(stream(s).handle(), event); }

    /** Device time between two recorded events, in milliseconds. */
    public float elapsedMillis(long from, long to) { return d.driver.elapsedMillis(from, to); }

    /** Waits for stream {@code s} only (cuStreamSynchronize). */
    public void synchronize(BackendStream s) { d.driver.synchronize(stream(s).handle()); }

    /** Whether stream {@code s} has finished its work (cuStreamQuery). */
    public boolean streamDone(BackendStream s) { return d.driver.streamDone(stream(s).handle()); }

    private static CudaStream stream(BackendStream s) { return (CudaStream) s; }
}
