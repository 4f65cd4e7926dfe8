package org.hostir.studio.exec.tensor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code cblas_sgemm} of the machine's OpenBLAS (Debian's libopenblas0), through java.lang.foreign as the CUDA
 * libraries are bound. The call is "critical" with heap access: the float arrays are passed in place, without a
 * copy (the call blocks the garbage collector while it runs, which a GEMM of a few seconds can afford).
 * OpenBLAS accumulates in float32 and runs its own threads.
 */
@SuppressWarnings("restricted")
record OpenBlas(String library, MethodHandle sgemm) implements Gemm {
    private static final int ROW_MAJOR = 101, NO_TRANS = 111;
    /** Where the library is looked for, by soname, after {@code HIRSTUDIO_LIBBLAS}. */
    static final List<String> SONAMES = List.of("libopenblas.so.0", "libopenblas.so", "libblas.so.3");

    /**
     * The first of {@code override} (a file, or {@code none}) and {@link #SONAMES} that the dynamic loader opens
     * and that has cblas_sgemm; empty when there is none (an override that cannot be loaded is an error: the user
     * asked for that file).
     */
    static Optional<Gemm> load(String override) {
        if (override != null && !override.isBlank()) {
            if (override.equals("none")) return Optional.empty();
            try {
                return bind(override, SymbolLookup.libraryLookup(Path.of(override), Arena.global()));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("cannot load a BLAS from HIRSTUDIO_LIBBLAS=" + override);
            }
        }
        for (String so : SONAMES) {
            try {
                Optional<Gemm> g = bind(so, SymbolLookup.libraryLookup(so, Arena.global()));
                if (g.isPresent()) return g;
            } catch (IllegalArgumentException e) {
                // not installed under this name: try the next
            }
        }
        return Optional.empty();
    }

    private static Optional<Gemm> bind(String name, SymbolLookup lookup) {
        FunctionDescriptor fd = FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_FLOAT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_FLOAT, ADDRESS, JAVA_INT);
        return lookup.find("cblas_sgemm").map(s -> new OpenBlas(name,
                Linker.nativeLinker().downcallHandle(s, fd, Linker.Option.critical(true))));
    }

    @Override
    public void sgemm(int m, int n, int k, float[] a, int aOff, int lda, float[] b, int bOff, int ldb, float[] c,
                      int cOff, int ldc) {
        if (m == 0 || n == 0) return;
        if (k == 0) {
            BlockedGemm.zero(m, n, c, cOff, ldc);
            return;
        }
        MemorySegment sa = MemorySegment.ofArray(a).asSlice(4L * aOff);
        MemorySegment sb = MemorySegment.ofArray(b).asSlice(4L * bOff);
        MemorySegment sc = MemorySegment.ofArray(c).asSlice(4L * cOff);
        try {
            sgemm.invokeExact(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1f, sa, lda, sb, ldb, 0f, sc, ldc);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cblas_sgemm: " + t, t);
        }
    }

    @Override
    public String describe() { return "OpenBLAS cblas_sgemm (" + library + ")"; }
}
