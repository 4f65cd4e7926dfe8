package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;

/**
 * Pointwise, reduction and fill kernels generated as CUDA C ({@link KernelCode}) for each op, dtype combination
 * and launch form, compiled once by NVRTC (the cubin is shared by all devices of one architecture) and loaded once per device. Every kernel takes
 * the same descriptor: up to 8 axes of output shape with element strides for the output and both operands
 * (stride 0 broadcasts), and for reductions the reduced axes with the operand's strides. bf16, half and fp8
 * are converted with bit operations and PTX cvt (fp8 stores need sm_89 or newer; cvt saturates, so a value
 * beyond the range is made NaN for e4m3fn and infinity for e5m2 first, as PyTorch's conversions give), so no CUDA header is needed at run time.
 */
final class Kernels {
    static final int MAX_AXES = 8;
    private static final int DESC_LONGS = 52;

    /** What a kernel computes; {@code expr} reads x (and y) as floats. */
    enum Kind { MAP, REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, FILL }

    record Key(Kind kind, String expr, DataType out, DataType a, DataType b) {
        String name() {
            return "k_" + kind.name().toLowerCase(java.util.Locale.ROOT) + "_" + Integer.toHexString(hashCode());
        }
    }

    private static final Map<String, byte[]> CUBINS = new ConcurrentHashMap<>();
    private final Map<Compiled, Long> functions = new ConcurrentHashMap<>();
    private final Map<String, Long> named = new ConcurrentHashMap<>();
    private final Driver driver;
    private final Nvrtc nvrtc;
    private final String arch;

    Kernels(Driver driver, Nvrtc nvrtc, String arch) {
        this.driver = driver;
        this.nvrtc = nvrtc;
        this.arch = arch;
    }

    /** One compiled form of a kernel. */
    private record Compiled(Key key, KernelCode.Indexing indexing) {}

    /** The loaded function for {@code key} on this device (current context), compiling it on first use. */
    long function(Key key, KernelCode.Indexing indexing) {
        return functions.computeIfAbsent(new Compiled(key, indexing), c -> {
            String src = KernelCode.source(key, indexing);
            byte[] bin = CUBINS.computeIfAbsent(arch + "\n" + src, s -> nvrtc.compile(src, key.name(), arch));
            return driver.loadFunction(bin, key.name());
        });
    }

    /**
     * The loaded function {@code name} of a kernel given as its whole source ({@link IndexKernelCode}'s), compiled
     * once per architecture and loaded once per device, as {@link #function} does for the generated kernels.
     */
    long named(String name, String source) {
        return named.computeIfAbsent(name + "\n" + source, k -> driver.loadFunction(
                CUBINS.computeIfAbsent(arch + "\n" + source, s -> nvrtc.compile(source, name, arch)), name));
    }

    /** Launch geometry and descriptor of one call; {@code reduced} may be null. */
    record Launch(long[] shape, long[] so, long[] sa, long[] sb, long[] rshape, long[] rsa, long seed) {}

    /**
     * The same launch over fewer axes: size-1 axes dropped and neighbours merged where every operand steps through
     * them as through one axis (stride of the outer = stride of the inner x its extent). The linear index keeps its
     * element, so FILL's values do not change; a contiguous tensor becomes one axis, which the kernel indexes without
     * a division.
     */
    static Launch collapsed(Launch l) {
        long[][] kept = merge(l.shape(), l.so(), l.sa(), l.sb());
        long[][] red = l.rshape() == null ? null : merge(l.rshape(), l.rsa());
        return new Launch(kept[0], kept[1], l.sa() == null ? null : kept[2], l.sb() == null ? null : kept[3],
                red == null ? null : red[0], red == null ? null : red[1], l.seed());
    }

    /** {@code shape} and its operands' strides (null: absent) with size-1 axes dropped and mergeable ones merged. */
    private static long[][] merge(long[] shape, long[]... strides) {
        int n = strides.length;
        java.util.List<long[]> axes = new java.util.ArrayList<>(); // {extent, stride of operand 0, 1, ...}
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == 1) continue;
            long[] axis = new long[n + 1];
            axis[0] = shape[i];
            for (int j = 0; j < n; j++) axis[j + 1] = strides[j] == null ? 0 : strides[j][i];
            if (!axes.isEmpty() && mergeable(axes.getLast(), axis)) {
                long[] outer = axes.getLast();
                outer[0] *= axis[0];
                for (int j = 1; j <= n; j++) outer[j] = axis[j];
            } else {
                axes.add(axis);
            }
        }
        long[][] out = new long[n + 1][axes.size()];
        for (int i = 0; i < axes.size(); i++) for (int j = 0; j <= n; j++) out[j][i] = axes.get(i)[j];
        return out;
    }

    private static boolean mergeable(long[] outer, long[] inner) {
        for (int j = 1; j < outer.length; j++) if (outer[j] != inner[j] * inner[0]) return false;
        return true;
    }

    /**
     * The indexing of a collapsed launch of {@code key} at these addresses: 32-bit where no index or offset
     * reaches 2^31 (a negative stride keeps 64 bits), in vector form where {@link #vectorizable}.
     */
    static KernelCode.Indexing indexing(Key key, Launch l, long n, long rn, long out, long a, long b) {
        long limit = Integer.MAX_VALUE;
        long ra = reach(l.shape(), l.sa()), rr = reach(l.rshape(), l.rsa());
        boolean narrow = n < limit && rn < limit && ra < limit && rr < limit && ra + rr < limit
                && reach(l.shape(), l.so()) < limit && reach(l.shape(), l.sb()) < limit;
        return new KernelCode.Indexing(l.shape().length, l.rshape() == null ? 0 : l.rshape().length, narrow,
                vectorizable(key, l, n, out, a, b));
    }

    /**
     * Output and every operand read one contiguous run of float/bf16/half elements (one collapsed axis of unit
     * strides, reduced axes in whole groups), the element count a multiple of the group and the addresses
     * 16-byte aligned: what {@link VectorKernelCode}'s grouped loads need.
     */
    static boolean vectorizable(Key key, Launch l, long n, long out, long a, long b) {
        boolean map = key.kind() == Kind.MAP;
        boolean reduce = !map && key.kind() != Kind.FILL;
        boolean usesB = map && key.expr().contains("y");
        if (!(map || reduce) || l.shape().length != 1 || n % VectorKernelCode.VEC != 0) return false;
        if (!VectorKernelCode.TYPES.contains(key.out()) || !VectorKernelCode.TYPES.contains(key.a())
                || usesB && !VectorKernelCode.TYPES.contains(key.b())) {
            return false;
        }
        if (l.so()[0] != 1 || l.sa() == null || l.sa()[0] != 1 || usesB && (l.sb() == null || l.sb()[0] != 1)) {
            return false;
        }
        if (reduce && l.rsa() != null) {
            for (long st : l.rsa()) if (st % VectorKernelCode.VEC != 0) return false;
        }
        return out % 16 == 0 && a % 16 == 0 && (!usesB || b % 16 == 0);
    }

    /** The largest offset an operand reaches over {@code shape}, capped at 2^31 - 1; the cap where a stride is negative. */
    private static long reach(long[] shape, long[] strides) {
        if (shape == null || strides == null) return 0;
        long r = 0;
        for (int i = 0; i < shape.length; i++) {
            // extent x stride stays below a buffer's size in elements, far from overflowing a long
            r += strides[i] < 0 ? Integer.MAX_VALUE : (shape[i] - 1) * strides[i];
            if (r >= Integer.MAX_VALUE) return Integer.MAX_VALUE;
        }
        return r;
    }

    void launch(Key key, long out, long a, long b, Launch given, long stream) {
        Launch l = collapsed(given);
        if (l.shape().length > MAX_AXES || (l.rshape() != null && l.rshape().length > MAX_AXES)) {
            throw new ExecutionException("CUDA kernels take at most " + MAX_AXES + " axes");
        }
        long n = 1;
        for (long s : l.shape()) n *= s;
        long rn = 1;
        if (l.rshape() != null) for (long s : l.rshape()) rn *= s;
        if (n == 0) return;
        KernelCode.Indexing ix = indexing(key, l, n, rn, out, a, b);
        long fn = function(key, ix);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = arena.allocate(JAVA_LONG, DESC_LONGS);
            desc.setAtIndex(JAVA_LONG, 0, l.shape().length);
            for (int i = 0; i < l.shape().length; i++) {
                desc.setAtIndex(JAVA_LONG, 1 + i, l.shape()[i]);
                desc.setAtIndex(JAVA_LONG, 9 + i, l.so()[i]);
                desc.setAtIndex(JAVA_LONG, 17 + i, l.sa() == null ? 0 : l.sa()[i]);
                desc.setAtIndex(JAVA_LONG, 25 + i, l.sb() == null ? 0 : l.sb()[i]);
            }
            if (key.kind() == Kind.FILL) desc.setAtIndex(JAVA_LONG, 25, l.seed());
            desc.setAtIndex(JAVA_LONG, 33, n);
            if (l.rshape() != null) {
                desc.setAtIndex(JAVA_LONG, 34, l.rshape().length);
                for (int i = 0; i < l.rshape().length; i++) {
                    desc.setAtIndex(JAVA_LONG, 35 + i, l.rshape()[i]);
                    desc.setAtIndex(JAVA_LONG, 43 + i, l.rsa()[i]);
                }
            }
            desc.setAtIndex(JAVA_LONG, 51, rn);
            MemorySegment params = arena.allocate(ADDRESS, 4);
            params.setAtIndex(ADDRESS, 0, arena.allocateFrom(JAVA_LONG, out));
            params.setAtIndex(ADDRESS, 1, arena.allocateFrom(JAVA_LONG, a));
            params.setAtIndex(ADDRESS, 2, arena.allocateFrom(JAVA_LONG, b));
            params.setAtIndex(ADDRESS, 3, desc);
            int block = 256;
            long perBlock = (long) block * KernelCode.UNROLL * (ix.vector() ? VectorKernelCode.VEC : 1);
            long blocks = Math.min((n + perBlock - 1) / perBlock, 132L * 32);
            driver.launch(fn, (int) blocks, block, stream, params);
        }
    }
}
