package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.hostir.studio.exec.ExecutionException;

/** NVRTC (libnvrtc.so.13/12) through java.lang.foreign: CUDA C source to a cubin for one architecture. */
@SuppressWarnings("restricted")
final class Nvrtc {
    private final MethodHandle create, compile, logSize, log, cubinSize, cubin, destroy;

    Nvrtc() {
        NativeLib l = NativeLib.open("NVRTC", "HIRSTUDIO_LIBNVRTC", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so");
        create = l.fn("nvrtcCreateProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT,
                ADDRESS, ADDRESS));
        compile = l.fn("nvrtcCompileProgram", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS));
        logSize = l.fn("nvrtcGetProgramLogSize", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        log = l.fn("nvrtcGetProgramLog", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        cubinSize = l.fn("nvrtcGetCUBINSize", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        cubin = l.fn("nvrtcGetCUBIN", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        destroy = l.fn("nvrtcDestroyProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    byte[] compile(String source, String name, String arch) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            MemorySegment src = a.allocateFrom(source);
            MemorySegment nm = a.allocateFrom(name + ".cu");
            check("nvrtcCreateProgram", NativeLib.call("create", () -> (int) create.invokeExact(p, src, nm, 0,
                    MemorySegment.NULL, MemorySegment.NULL)));
            long prog = p.get(JAVA_LONG, 0);
            try {
                String[] options = {"--gpu-architecture=" + arch, "-std=c++17"};
                MemorySegment opts = a.allocate(ADDRESS, options.length);
                for (int i = 0; i < options.length; i++) opts.setAtIndex(ADDRESS, i, a.allocateFrom(options[i]));
                int rc = NativeLib.call("compile", () -> (int) compile.invokeExact(prog, options.length, opts));
                if (rc != 0) throw new ExecutionException("NVRTC could not compile " + name + " (" + rc + "):\n"
                        + log(a, prog) + "\n" + source);
                MemorySegment size = a.allocate(JAVA_LONG);
                check("nvrtcGetCUBINSize", NativeLib.call("size", () -> (int) cubinSize.invokeExact(prog, size)));
                MemorySegment bin = a.allocate(size.get(JAVA_LONG, 0));
                check("nvrtcGetCUBIN", NativeLib.call("cubin", () -> (int) cubin.invokeExact(prog, bin)));
                return bin.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            } finally {
                NativeLib.call("destroy", () -> (int) destroy.invokeExact(p));
            }
        }
    }

    private String log(Arena a, long prog) {
        MemorySegment size = a.allocate(JAVA_LONG);
        if (NativeLib.call("log", () -> (int) logSize.invokeExact(prog, size)) != 0) return "";
        MemorySegment text = a.allocate(size.get(JAVA_LONG, 0) + 1);
        NativeLib.call("log", () -> (int) log.invokeExact(prog, text));
        return text.getString(0);
    }

    private static void check(String what, int rc) {
        if (rc != 0) throw new ExecutionException(what + " failed: nvrtcResult " + rc);
    }
}
