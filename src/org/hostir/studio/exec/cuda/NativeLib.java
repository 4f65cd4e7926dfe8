package org.hostir.studio.exec.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.exec.ExecutionException;

/**
 * One native library opened through java.lang.foreign. Where it comes from, in order: the override variable
 * (a file path), {@code $CUDA_HOME/lib64} and {@code $CUDA_HOME/lib}, then the dynamic loader by soname; a
 * library that none of them has is reported by name together with the places tried.
 */
@SuppressWarnings("restricted")
final class NativeLib {
    static final Linker LINKER = Linker.nativeLinker();

    private final String label;
    private final SymbolLookup lookup;

    private NativeLib(String label, SymbolLookup lookup) {
        this.label = label;
        this.lookup = lookup;
    }

    static NativeLib open(String label, String overrideVariable, String... sonames) {
        List<String> tried = new ArrayList<>();
        String override = System.getenv(overrideVariable);
        if (override != null && !override.isBlank()) {
            tried.add(overrideVariable + "=" + override);
            try {
                return new NativeLib(label, SymbolLookup.libraryLookup(Path.of(override), Arena.global()));
            } catch (IllegalArgumentException e) {
                throw new ExecutionException("cannot load " + label + " from " + overrideVariable + "=" + override);
            }
        }
        String cudaHome = System.getenv("CUDA_HOME");
        for (String so : sonames) {
            if (cudaHome != null) {
                for (String dir : List.of("lib64", "lib")) {
                    Path p = Path.of(cudaHome, dir, so);
                    if (Files.isRegularFile(p)) {
                        return new NativeLib(label, SymbolLookup.libraryLookup(p, Arena.global()));
                    }
                    tried.add(p.toString());
                }
            }
            try {
                return new NativeLib(label, SymbolLookup.libraryLookup(so, Arena.global()));
            } catch (IllegalArgumentException e) {
                tried.add(so + " (dynamic loader)");
            }
        }
        throw new ExecutionException(label + " not found: tried " + String.join(", ", tried) + "; set "
                + overrideVariable + " to the library file");
    }

    MethodHandle fn(String symbol, FunctionDescriptor fd) {
        return LINKER.downcallHandle(lookup.find(symbol).orElseThrow(
                () -> new ExecutionException(label + " has no symbol " + symbol)), fd);
    }

    /** A handle that is null where the library lacks the symbol (optional entry points). */
    MethodHandle optional(String symbol, FunctionDescriptor fd) {
        return lookup.find(symbol).map(s -> LINKER.downcallHandle(s, fd)).orElse(null);
    }

    /** A native call returning a status code; {@code invokeExact}'s Throwable becomes an ExecutionException. */
    @FunctionalInterface
    interface Call {
        int run() throws Throwable;
    }

    static int call(String what, Call c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new ExecutionException(what + ": " + t);
        }
    }
}
