package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.hostir.studio.exec.ExecutionException;

/**
 * The CUDA driver API (libcuda.so.1) through java.lang.foreign. Handles (CUcontext, CUstream, CUevent, ...) are
 * raw addresses in {@code long}s; device pointers are CUdeviceptr values. The driver is used instead of JCuda
 * because JCuda's jar would have to resolve in the Tycho target platform and travel with natives to the GPU
 * machine, while FFM needs nothing beyond java.base; the exported names are the versioned ones (_v2) that
 * cuda.h maps its API to.
 */
@SuppressWarnings("restricted")
final class Driver {
    static final int CU_STREAM_NON_BLOCKING = 1;
    static final int CU_EVENT_DEFAULT = 0;
    static final int CUDA_ERROR_NOT_READY = 600;
    static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    static final int CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
    static final int ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76;

    private static volatile Driver instance;

    private final MethodHandle init, deviceGetCount, deviceGet, deviceGetAttribute, deviceGetName, primaryCtxRetain,
            ctxSetCurrent, ctxEnablePeerAccess, streamCreate, streamSynchronize, streamQuery, streamWaitEvent,
            eventCreate, eventRecord, eventElapsed, eventQuery, eventDestroy, memAlloc, memFree, memcpyHtoD,
            memcpyDtoH, memcpyDtoDAsync, memcpyPeerAsync, moduleLoadData, moduleGetFunction, launchKernel,
            getErrorName, memGetInfo;

    private Driver(NativeLib l) {
        init = l.fn("cuInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        deviceGetCount = l.fn("cuDeviceGetCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        deviceGet = l.fn("cuDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        deviceGetAttribute = l.fn("cuDeviceGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        deviceGetName = l.fn("cuDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        primaryCtxRetain = l.fn("cuDevicePrimaryCtxRetain", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        ctxSetCurrent = l.fn("cuCtxSetCurrent", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        ctxEnablePeerAccess = l.fn("cuCtxEnablePeerAccess", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
        streamCreate = l.fn("cuStreamCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        streamSynchronize = l.fn("cuStreamSynchronize", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        streamQuery = l.fn("cuStreamQuery", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        streamWaitEvent = l.fn("cuStreamWaitEvent", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
        eventCreate = l.fn("cuEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        eventRecord = l.fn("cuEventRecord", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
        eventElapsed = l.fn("cuEventElapsedTime", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        eventQuery = l.fn("cuEventQuery", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        eventDestroy = l.fn("cuEventDestroy_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        memAlloc = l.fn("cuMemAlloc_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        memFree = l.fn("cuMemFree_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        memcpyHtoD = l.fn("cuMemcpyHtoD_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG));
        memcpyDtoH = l.fn("cuMemcpyDtoH_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        memcpyDtoDAsync = l.fn("cuMemcpyDtoDAsync_v2",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        memcpyPeerAsync = l.fn("cuMemcpyPeerAsync",
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        moduleLoadData = l.fn("cuModuleLoadData", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        moduleGetFunction = l.fn("cuModuleGetFunction", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
        launchKernel = l.fn("cuLaunchKernel", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
        getErrorName = l.fn("cuGetErrorName", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        memGetInfo = l.fn("cuMemGetInfo_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    }

    /** The driver, initialised once; throws (naming libcuda.so.1) where there is none. */
    static Driver get() {
        Driver d = instance;
        if (d == null) {
            synchronized (Driver.class) {
                if (instance == null) {
                    Driver n = new Driver(NativeLib.open("the CUDA driver", "HIRSTUDIO_LIBCUDA", "libcuda.so.1"));
                    n.check("cuInit", NativeLib.call("cuInit", () -> (int) n.init.invokeExact(0)));
                    instance = n;
                }
                d = instance;
            }
        }
        return d;
    }

    /** How many CUDA devices this process sees; 0 where there is no driver or no device. */
    static int deviceCountOrZero() {
        try {
            return get().deviceCount();
        } catch (ExecutionException | UnsatisfiedLinkError e) {
            return 0;
        }
    }

    void check(String what, int rc) {
        if (rc == 0) return;
        throw new ExecutionException(what + " failed: " + errorName(rc) + " (" + rc + ")");
    }

    String errorName(int rc) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            int r = NativeLib.call("cuGetErrorName", () -> (int) getErrorName.invokeExact(rc, p));
            if (r != 0) return "CUDA error";
            return p.get(ADDRESS, 0).reinterpret(256).getString(0);
        }
    }

    int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("cuDeviceGetCount", NativeLib.call("cuDeviceGetCount", () -> (int) deviceGetCount.invokeExact(n)));
            return n.get(JAVA_INT, 0);
        }
    }

    int attribute(int device, int attribute) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cuDeviceGetAttribute", NativeLib.call("cuDeviceGetAttribute",
                    () -> (int) deviceGetAttribute.invokeExact(v, attribute, device)));
            return v.get(JAVA_INT, 0);
        }
    }

    String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(256);
            check("cuDeviceGetName", NativeLib.call("cuDeviceGetName", () -> (int) deviceGetName.invokeExact(s, 256, device)));
            return s.getString(0);
        }
    }

    long primaryContext(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = a.allocate(ADDRESS);
            check("cuDevicePrimaryCtxRetain", NativeLib.call("ctx", () -> (int) primaryCtxRetain.invokeExact(c, device)));
            return c.get(JAVA_LONG, 0);
        }
    }

    void setCurrent(long ctx) { check("cuCtxSetCurrent", NativeLib.call("ctx", () -> (int) ctxSetCurrent.invokeExact(ctx))); }

    /** Peer access from the current context to {@code peer}; already enabled is fine. */
    void enablePeerAccess(long peer) {
        int rc = NativeLib.call("peer", () -> (int) ctxEnablePeerAccess.invokeExact(peer, 0));
        if (rc != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) check("cuCtxEnablePeerAccess", rc);
    }

    long createStream() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(ADDRESS);
            check("cuStreamCreate", NativeLib.call("stream", () -> (int) streamCreate.invokeExact(s, CU_STREAM_NON_BLOCKING)));
            return s.get(JAVA_LONG, 0);
        }
    }

    void synchronize(long stream) { check("cuStreamSynchronize", NativeLib.call("sync", () -> (int) streamSynchronize.invokeExact(stream))); }

    /** True when all work on the stream is done; errors other than "not ready" throw. */
    boolean streamDone(long stream) {
        int rc = NativeLib.call("query", () -> (int) streamQuery.invokeExact(stream));
        if (rc == CUDA_ERROR_NOT_READY) return false;
        check("cuStreamQuery", rc);
        return true;
    }

    void waitEvent(long stream, long event) {
        check("cuStreamWaitEvent", NativeLib.call("wait", () -> (int) streamWaitEvent.invokeExact(stream, event, 0)));
    }

    long createEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = a.allocate(ADDRESS);
            check("cuEventCreate", NativeLib.call("event", () -> (int) eventCreate.invokeExact(e, CU_EVENT_DEFAULT)));
            return e.get(JAVA_LONG, 0);
        }
    }

    void record(long event, long stream) { check("cuEventRecord", NativeLib.call("record", () -> (int) eventRecord.invokeExact(event, stream))); }

    boolean eventDone(long event) {
        int rc = NativeLib.call("query", () -> (int) eventQuery.invokeExact(event));
        if (rc == CUDA_ERROR_NOT_READY) return false;
        check("cuEventQuery", rc);
        return true;
    }

    float elapsedMillis(long from, long to) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check("cuEventElapsedTime", NativeLib.call("elapsed", () -> (int) eventElapsed.invokeExact(ms, from, to)));
            return ms.get(JAVA_FLOAT, 0);
        }
    }

    void destroyEvent(long event) { NativeLib.call("destroy", () -> (int) eventDestroy.invokeExact(event)); }

    /** Device memory, or -1 when the device is out of memory (the caller names the tensor). */
    long alloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int rc = NativeLib.call("alloc", () -> (int) memAlloc.invokeExact(p, Math.max(bytes, 1L)));
            if (rc == CUDA_ERROR_OUT_OF_MEMORY) return -1;
            check("cuMemAlloc", rc);
            return p.get(JAVA_LONG, 0);
        }
    }

    void free(long ptr) { check("cuMemFree", NativeLib.call("free", () -> (int) memFree.invokeExact(ptr))); }

    long[] memInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment f = a.allocate(JAVA_LONG), t = a.allocate(JAVA_LONG);
            check("cuMemGetInfo", NativeLib.call("meminfo", () -> (int) memGetInfo.invokeExact(f, t)));
            return new long[] {f.get(JAVA_LONG, 0), t.get(JAVA_LONG, 0)};
        }
    }

    void copyHtoD(long dst, MemorySegment src, long bytes) {
        check("cuMemcpyHtoD", NativeLib.call("HtoD", () -> (int) memcpyHtoD.invokeExact(dst, src, bytes)));
    }

    void copyDtoH(MemorySegment dst, long src, long bytes) {
        check("cuMemcpyDtoH", NativeLib.call("DtoH", () -> (int) memcpyDtoH.invokeExact(dst, src, bytes)));
    }

    void copyDtoDAsync(long dst, long src, long bytes, long stream) {
        check("cuMemcpyDtoDAsync", NativeLib.call("DtoD", () -> (int) memcpyDtoDAsync.invokeExact(dst, src, bytes, stream)));
    }

    void copyPeerAsync(long dst, long dstCtx, long src, long srcCtx, long bytes, long stream) {
        check("cuMemcpyPeerAsync", NativeLib.call("peer copy",
                () -> (int) memcpyPeerAsync.invokeExact(dst, dstCtx, src, srcCtx, bytes, stream)));
    }

    /** Loads a cubin into the current context and returns the named function. */
    long loadFunction(byte[] image, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(ADDRESS);
            MemorySegment img = a.allocate(image.length + 1L);
            img.copyFrom(MemorySegment.ofArray(image));
            check("cuModuleLoadData", NativeLib.call("module", () -> (int) moduleLoadData.invokeExact(m, img)));
            long module = m.get(JAVA_LONG, 0);
            MemorySegment f = a.allocate(ADDRESS);
            MemorySegment n = a.allocateFrom(name);
            check("cuModuleGetFunction " + name,
                    NativeLib.call("function", () -> (int) moduleGetFunction.invokeExact(f, module, n)));
            return f.get(JAVA_LONG, 0);
        }
    }

    void launch(long function, int grid, int block, long stream, MemorySegment params) {
        check("cuLaunchKernel", NativeLib.call("launch", () -> (int) launchKernel.invokeExact(function, grid, 1, 1,
                block, 1, 1, 0, stream, params, MemorySegment.NULL)));
    }
}
