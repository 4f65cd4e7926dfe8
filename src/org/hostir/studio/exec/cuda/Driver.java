package org.hostir.studio.exec.cuda;

import static org.hostir.studio.exec.cuda.JCudaHandles.context;
import static org.hostir.studio.exec.cuda.JCudaHandles.device;
import static org.hostir.studio.exec.cuda.JCudaHandles.event;
import static org.hostir.studio.exec.cuda.JCudaHandles.raw;
import static org.hostir.studio.exec.cuda.JCudaHandles.stream;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

import org.hostir.studio.exec.ExecutionException;

/**
 * The CUDA driver API through JCuda 12.6 (org.jcuda:jcuda and its linux-x86_64 natives): devices, primary
 * contexts, memory, streams, events, peer copies, module loading and launches. The rest of the backend holds
 * handles as raw {@code long}s, as the java.lang.foreign bindings of NCCL, cuBLASLt and NVRTC need them;
 * {@link JCudaHandles} turns one into the other. Before JCuda's native library is loaded, libcuda.so.1 is looked
 * up by name (the dynamic loader, {@code CUDA_HOME}, {@code HIRSTUDIO_LIBCUDA}), so a machine without a driver is
 * told which library is missing rather than given a linker error; JCuda's library then links against the
 * already loaded driver.
 */
final class Driver {
    static final int CU_STREAM_NON_BLOCKING = 1;
    static final int CU_EVENT_DEFAULT = 0;
    static final int CUDA_ERROR_NOT_READY = CUresult.CUDA_ERROR_NOT_READY;
    static final int CUDA_ERROR_OUT_OF_MEMORY = CUresult.CUDA_ERROR_OUT_OF_MEMORY;
    static final int CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    static final int ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76;

    private static volatile Driver instance;

    private Driver() {}

    /** The driver, initialised once; throws (naming libcuda.so.1 or JCuda's library) where there is none. */
    static Driver get() {
        Driver d = instance;
        if (d == null) {
            synchronized (Driver.class) {
                if (instance == null) {
                    NativeLib.open("the CUDA driver", "HIRSTUDIO_LIBCUDA", "libcuda.so.1");
                    Driver n = new Driver();
                    try {
                        JCudaDriver.setExceptionsEnabled(false);
                        n.check("cuInit", JCudaDriver.cuInit(0));
                    } catch (LinkageError e) {
                        throw new ExecutionException("JCuda's driver binding (org.jcuda:jcuda-natives 12.6.0, "
                                + "libJCudaDriver-12.6.0-linux-x86_64.so) could not be loaded: " + e.getMessage());
                    }
                    instance = n;
                }
                d = instance;
            }
        }
        return d;
    }

    /** JCuda's JNI library for the driver API, as its natives jar (or the product's fragment) holds it. */
    static final String BINDING_RESOURCE = "/lib/libJCudaDriver-12.6.0-linux-x86_64.so";

    /**
     * True when JCuda's driver binding ships beside JCuda's classes, where JCuda extracts it from when no
     * {@code java.library.path} entry has it; checked without loading it (no GPU needed).
     */
    static boolean bindingPackaged() { return JCudaDriver.class.getResource(BINDING_RESOURCE) != null; }

    /** How many CUDA devices this process sees; 0 where there is no driver, no JCuda or no device. */
    static int deviceCountOrZero() {
        try {
            return get().deviceCount();
        } catch (ExecutionException | LinkageError e) {
            return 0;
        }
    }

    void check(String what, int rc) {
        if (rc == 0) return;
        throw new ExecutionException(what + " failed: " + errorName(rc) + " (" + rc + ")");
    }

    String errorName(int rc) { return CUresult.stringFor(rc); }

    int deviceCount() {
        int[] n = new int[1];
        check("cuDeviceGetCount", JCudaDriver.cuDeviceGetCount(n));
        return n[0];
    }

    private CUdevice dev(int ordinal) {
        CUdevice d = new CUdevice();
        check("cuDeviceGet", JCudaDriver.cuDeviceGet(d, ordinal));
        return d;
    }

    int attribute(int device, int attribute) {
        int[] v = new int[1];
        check("cuDeviceGetAttribute", JCudaDriver.cuDeviceGetAttribute(v, attribute, dev(device)));
        return v[0];
    }

    String deviceName(int device) {
        byte[] name = new byte[256];
        check("cuDeviceGetName", JCudaDriver.cuDeviceGetName(name, name.length, dev(device)));
        int end = 0;
        while (end < name.length && name[end] != 0) end++;
        return new String(name, 0, end, StandardCharsets.UTF_8);
    }

    long primaryContext(int device) {
        CUcontext c = new CUcontext();
        check("cuDevicePrimaryCtxRetain", JCudaDriver.cuDevicePrimaryCtxRetain(c, dev(device)));
        return raw(c);
    }

    void setCurrent(long ctx) { check("cuCtxSetCurrent", JCudaDriver.cuCtxSetCurrent(context(ctx))); }

    /** Peer access from the current context to {@code peer}; already enabled is fine. */
    void enablePeerAccess(long peer) {
        int rc = JCudaDriver.cuCtxEnablePeerAccess(context(peer), 0);
        if (rc != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) check("cuCtxEnablePeerAccess", rc);
    }

    long createStream() {
        CUstream s = new CUstream();
        check("cuStreamCreate", JCudaDriver.cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
        return raw(s);
    }

    /** A non-blocking stream of the current context at its greatest priority (scheduled ahead of the others). */
    long createPriorityStream() {
        int[] least = new int[1], greatest = new int[1];
        check("cuCtxGetStreamPriorityRange", JCudaDriver.cuCtxGetStreamPriorityRange(least, greatest));
        CUstream s = new CUstream();
        check("cuStreamCreateWithPriority", JCudaDriver.cuStreamCreateWithPriority(s, CU_STREAM_NON_BLOCKING,
                greatest[0]));
        return raw(s);
    }

    void synchronize(long stream) { check("cuStreamSynchronize", JCudaDriver.cuStreamSynchronize(stream(stream))); }

    /** True when all work on the stream is done; errors other than "not ready" throw. */
    boolean streamDone(long stream) {
        int rc = JCudaDriver.cuStreamQuery(stream(stream));
        if (rc == CUDA_ERROR_NOT_READY) return false;
        check("cuStreamQuery", rc);
        return true;
    }

    void waitEvent(long stream, long event) {
        check("cuStreamWaitEvent", JCudaDriver.cuStreamWaitEvent(stream(stream), event(event), 0));
    }

    long createEvent() {
        CUevent e = new CUevent();
        check("cuEventCreate", JCudaDriver.cuEventCreate(e, CU_EVENT_DEFAULT));
        return raw(e);
    }

    void record(long event, long stream) { check("cuEventRecord", JCudaDriver.cuEventRecord(event(event), stream(stream))); }

    boolean eventDone(long event) {
        int rc = JCudaDriver.cuEventQuery(event(event));
        if (rc == CUDA_ERROR_NOT_READY) return false;
        check("cuEventQuery", rc);
        return true;
    }

    float elapsedMillis(long from, long to) {
        float[] ms = new float[1];
        check("cuEventElapsedTime", JCudaDriver.cuEventElapsedTime(ms, event(from), event(to)));
        return ms[0];
    }

    void destroyEvent(long event) { JCudaDriver.cuEventDestroy(event(event)); }

    /** Device memory, or -1 when the device is out of memory (the caller names the tensor). */
    long alloc(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        int rc = JCudaDriver.cuMemAlloc(p, Math.max(bytes, 1L));
        if (rc == CUDA_ERROR_OUT_OF_MEMORY) return -1;
        check("cuMemAlloc", rc);
        return raw(p);
    }

    void free(long ptr) { check("cuMemFree", JCudaDriver.cuMemFree(device(ptr))); }

    long[] memInfo() {
        long[] free = new long[1], total = new long[1];
        check("cuMemGetInfo", JCudaDriver.cuMemGetInfo(free, total));
        return new long[] {free[0], total[0]};
    }

    void copyHtoD(long dst, MemorySegment src, long bytes) {
        check("cuMemcpyHtoD", JCudaDriver.cuMemcpyHtoD(device(dst), JCudaHandles.host(src.address()), bytes));
    }

    /** Stream-ordered; from pageable memory the driver stages the bytes before it returns, so {@code src} may go. */
    void copyHtoDAsync(long dst, MemorySegment src, long bytes, long stream) {
        check("cuMemcpyHtoDAsync", JCudaDriver.cuMemcpyHtoDAsync(device(dst), JCudaHandles.host(src.address()), bytes,
                stream(stream)));
    }

    void copyDtoH(MemorySegment dst, long src, long bytes) {
        check("cuMemcpyDtoH", JCudaDriver.cuMemcpyDtoH(JCudaHandles.host(dst.address()), device(src), bytes));
    }

    void copyDtoDAsync(long dst, long src, long bytes, long stream) {
        check("cuMemcpyDtoDAsync", JCudaDriver.cuMemcpyDtoDAsync(device(dst), device(src), bytes, stream(stream)));
    }

    void copyPeerAsync(long dst, long dstCtx, long src, long srcCtx, long bytes, long stream) {
        check("cuMemcpyPeerAsync", JCudaDriver.cuMemcpyPeerAsync(device(dst), context(dstCtx), device(src),
                context(srcCtx), bytes, stream(stream)));
    }

    /** Loads a cubin into the current context and returns the named function. */
    long loadFunction(byte[] image, String name) {
        CUmodule m = new CUmodule();
        check("cuModuleLoadData", JCudaDriver.cuModuleLoadData(m, Arrays.copyOf(image, image.length + 1)));
        CUfunction f = new CUfunction();
        check("cuModuleGetFunction " + name, JCudaDriver.cuModuleGetFunction(f, m, name));
        return raw(f);
    }

    /** {@code params} is the kernel's argument array (void**) in native memory. */
    void launch(long function, int grid, int block, long stream, MemorySegment params) {
        check("cuLaunchKernel", JCudaDriver.cuLaunchKernel(JCudaHandles.function(function), grid, 1, 1, block, 1, 1,
                0, stream(stream), JCudaHandles.host(params.address()), null));
    }
}
