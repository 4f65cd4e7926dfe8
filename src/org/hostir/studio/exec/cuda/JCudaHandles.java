package org.hostir.studio.exec.cuda;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;

/**
 * The bridge between JCuda's handle objects and the raw handles that the java.lang.foreign bindings (NCCL,
 * cuBLASLt, NVRTC) and the rest of the backend pass around as {@code long}s. JCuda keeps the handle in the
 * private field {@code NativePointerObject.nativePointer} and offers no public accessor, so this class alone
 * reads and writes it, through a VarHandle made once.
 */
final class JCudaHandles {
    private static final VarHandle NATIVE;

    static {
        try {
            NATIVE = MethodHandles.privateLookupIn(NativePointerObject.class, MethodHandles.lookup())
                    .findVarHandle(NativePointerObject.class, "nativePointer", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("JCuda's NativePointerObject has no field nativePointer: " + e);
        }
    }

    private JCudaHandles() {}

    /** The raw handle (or device address) inside a JCuda object that this backend created. */
    static long raw(NativePointerObject o) { return (long) NATIVE.get(o); }

    private static <T extends NativePointerObject> T wrap(T o, long raw) {
        NATIVE.set(o, raw);
        return o;
    }

    static CUstream stream(long raw) { return wrap(new CUstream(), raw); }

    static CUevent event(long raw) { return wrap(new CUevent(), raw); }

    static CUcontext context(long raw) { return wrap(new CUcontext(), raw); }

    static CUfunction function(long raw) { return wrap(new CUfunction(), raw); }

    static CUdeviceptr device(long address) { return wrap(new CUdeviceptr(), address); }

    /** Host memory (a native MemorySegment's address) as a JCuda pointer. */
    static Pointer host(long address) { return wrap(new Pointer(), address); }
}
