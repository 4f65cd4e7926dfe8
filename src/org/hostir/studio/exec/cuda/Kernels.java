package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;

/**
 * Pointwise, reduction and fill kernels generated as CUDA C for each op and dtype combination, compiled once by
 * NVRTC (the cubin is shared by all devices of one architecture) and loaded once per device. Every kernel takes
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

    /** One compiled form of a kernel. */
    private record Compiled(Key key, Indexing indexing) {}
    private final Driver driver;
    private final Nvrtc nvrtc;
    private final String arch;

    Kernels(Driver driver, Nvrtc nvrtc, String arch) {
        this.driver = driver;
        this.nvrtc = nvrtc;
        this.arch = arch;
    }

    /** The loaded function for {@code key} on this device (current context), compiling it on first use. */
    long function(Key key, Indexing indexing) {
        return functions.computeIfAbsent(new Compiled(key, indexing), c -> {
            String src = source(key, indexing);
            byte[] bin = CUBINS.computeIfAbsent(arch + "\n" + src, s -> nvrtc.compile(src, key.name(), arch));
            return driver.loadFunction(bin, key.name());
        });
    }

    /**
     * How a launch indexes, fixed per compiled kernel: its (collapsed) output and reduced ranks, so the axis loops
     * unroll with constant subscripts (a variable subscript into the descriptor, a kernel parameter, makes every
     * thread copy the whole descriptor to local memory), and whether every index and offset fits 32 bits, where
     * division is several times cheaper than in 64.
     */
    record Indexing(int rank, int reducedRank, boolean narrow) {
        /** The widest form, for reading a kernel's text: 64-bit, every axis. */
        static final Indexing GENERAL = new Indexing(MAX_AXES, MAX_AXES, false);
    }

    static String source(Key k) {
        return source(k, Indexing.GENERAL);
    }

    static String source(Key k, Indexing ix) {
        String idx = ix.narrow() ? "unsigned int" : "long long";
        StringBuilder s = new StringBuilder(PRELUDE);
        s.append("extern \"C\" __global__ void ").append(k.name())
                .append("(void* out, const void* a, const void* b, Desc d) {\n")
                .append("  ").append(idx).append(" step = (").append(idx).append(")gridDim.x * blockDim.x;\n")
                .append("  for (").append(idx).append(" i = blockIdx.x * (").append(idx)
                .append(")blockDim.x + threadIdx.x; i < (").append(idx).append(")d.n; i += step) {\n")
                .append("    ").append(idx).append(" r = i, oo = 0, oa = 0, ob = 0;\n");
        // the outermost axis needs no division (r is its index)
        for (int a = ix.rank() - 1; a > 0; a--) {
            s.append("    { ").append(idx).append(" c = r % (").append(idx).append(")d.shape[").append(a)
                    .append("]; r /= (").append(idx).append(")d.shape[").append(a).append("];")
                    .append(" oo += c * d.so[").append(a).append("]; oa += c * d.sa[").append(a)
                    .append("]; ob += c * d.sb[").append(a).append("]; }\n");
        }
        s.append("    oo += r * d.so[0]; oa += r * d.sa[0]; ob += r * d.sb[0];\n");
        String body = switch (k.kind()) {
            case MAP -> mapBody(k);
            case REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD -> reduceBody(k, ix, idx);
            case FILL -> fillBody(k);
        };
        return s.append(body).append("  }\n}\n").toString();
    }

    private static String mapBody(Key k) {
        return "    float x = ld_" + t(k.a()) + "(a, oa);\n"
                + (k.expr().contains("y") ? "    float y = ld_" + t(k.b()) + "(b, ob);\n" : "")
                + "    st_" + t(k.out()) + "(out, oo, " + k.expr() + ");\n";
    }

    private static String reduceBody(Key k, Indexing ix, String idx) {
        StringBuilder s = new StringBuilder("    " + accumulator(k.kind()) + ";\n");
        s.append("    for (").append(idx).append(" j = 0; j < (").append(idx).append(")d.rn; j++) {\n")
                .append("      ").append(idx).append(" q = j, o = oa;\n");
        for (int a = ix.reducedRank() - 1; a > 0; a--) {
            s.append("      { ").append(idx).append(" c = q % (").append(idx).append(")d.rshape[").append(a)
                    .append("]; q /= (").append(idx).append(")d.rshape[").append(a).append("]; o += c * d.rsa[")
                    .append(a).append("]; }\n");
        }
        return s.append("      o += q * d.rsa[0];\n")
                .append("      float v = ld_").append(t(k.a())).append("(a, o);\n")
                .append("      ").append(combine(k.kind())).append(";\n")
                .append("    }\n")
                .append("    st_").append(t(k.out())).append("(out, oo, (float)acc);\n").toString();
    }

    static Kind reduction(ReductionOpType op) {
        return switch (op) {
            case SUM -> Kind.REDUCE_SUM;
            case MAX -> Kind.REDUCE_MAX;
            case MIN -> Kind.REDUCE_MIN;
            case PROD -> Kind.REDUCE_PROD;
        };
    }

    /** The accumulator and its initial value: nvFuser's init of each reduction (sums and products in double). */
    static String accumulator(Kind kind) {
        return switch (kind) {
            case REDUCE_SUM, REDUCE_PROD -> "double acc = " + identity(kind);
            case REDUCE_MAX, REDUCE_MIN -> "float acc = " + identity(kind);
            case MAP, FILL -> throw new IllegalArgumentException(kind + " is not a reduction");
        };
    }

    /** The reduction's identity as CUDA C (infinities as float bits: NVRTC has no math headers). */
    static String identity(Kind kind) {
        return switch (kind) {
            case REDUCE_SUM -> "0";
            case REDUCE_PROD -> "1";
            case REDUCE_MAX -> "-__int_as_float(0x7f800000)";
            case REDUCE_MIN -> "__int_as_float(0x7f800000)";
            case MAP, FILL -> throw new IllegalArgumentException(kind + " is not a reduction");
        };
    }

    /** One step; max and min propagate NaN as torch's reductions do. */
    static String combine(Kind kind) {
        return switch (kind) {
            case REDUCE_SUM -> "acc += v";
            case REDUCE_PROD -> "acc *= v";
            case REDUCE_MAX -> "acc = (v != v || acc != acc) ? __int_as_float(0x7fc00000) : fmaxf(acc, v)";
            case REDUCE_MIN -> "acc = (v != v || acc != acc) ? __int_as_float(0x7fc00000) : fminf(acc, v)";
            case MAP, FILL -> throw new IllegalArgumentException(kind + " is not a reduction");
        };
    }

    private static String fillBody(Key k) {
        return "    unsigned long long h = (unsigned long long)(i + 1) * 0x9E3779B97F4A7C15ull"
                + " + (unsigned long long)d.sb[0];\n"
                + "    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29;\n"
                // standard normal values (Box-Muller), as torch.randn fills the baseline's operands: a
                // tensor-core GEMM's speed depends on its data, so both sides multiply alike
                + "    float u1 = ((float)(h >> 40) + 1.0f) * 5.9604645e-8f;\n"
                + "    float u2 = (float)((h >> 16) & 0xffffff) * 5.9604645e-8f;\n"
                + "    st_" + t(k.out()) + "(out, oo, sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2));\n";
    }

    private static String t(DataType d) {
        return switch (d) {
            case FLOAT -> "f32";
            case BFLOAT16 -> "bf16";
            case HALF -> "f16";
            case INT64 -> "i64";
            case DOUBLE -> "f64";
            case INT32 -> "i32";
            case BOOL -> "b8";
            case FLOAT8_E4M3FN -> "e4m3";
            case FLOAT8_E5M2 -> "e5m2";
        };
    }

    private static final String PRELUDE = """
            struct Desc { long long rank; long long shape[8]; long long so[8]; long long sa[8]; long long sb[8];
                          long long n; long long rrank; long long rshape[8]; long long rsa[8]; long long rn; };
            __device__ __forceinline__ float ld_f32(const void* p, long long i) { return ((const float*)p)[i]; }
            __device__ __forceinline__ float ld_i64(const void* p, long long i) { return (float)((const long long*)p)[i]; }
            __device__ __forceinline__ float ld_bf16(const void* p, long long i) {
              return __uint_as_float(((unsigned int)((const unsigned short*)p)[i]) << 16); }
            __device__ __forceinline__ float ld_f16(const void* p, long long i) {
              unsigned short h = ((const unsigned short*)p)[i]; float f;
              asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
            __device__ __forceinline__ void st_f32(void* p, long long i, float v) { ((float*)p)[i] = v; }
            __device__ __forceinline__ void st_i64(void* p, long long i, float v) { ((long long*)p)[i] = (long long)v; }
            __device__ __forceinline__ void st_bf16(void* p, long long i, float v) {
              unsigned int u = __float_as_uint(v);
              unsigned short h = (v != v) ? (unsigned short)0x7fc0 : (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
              ((unsigned short*)p)[i] = h; }
            __device__ __forceinline__ void st_f16(void* p, long long i, float v) {
              unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v)); ((unsigned short*)p)[i] = h; }
            __device__ __forceinline__ float ld_f64(const void* p, long long i) { return (float)((const double*)p)[i]; }
            __device__ __forceinline__ void st_f64(void* p, long long i, float v) { ((double*)p)[i] = (double)v; }
            __device__ __forceinline__ float ld_i32(const void* p, long long i) { return (float)((const int*)p)[i]; }
            __device__ __forceinline__ void st_i32(void* p, long long i, float v) { ((int*)p)[i] = (int)v; }
            __device__ __forceinline__ float ld_b8(const void* p, long long i) {
              return ((const unsigned char*)p)[i] != 0 ? 1.0f : 0.0f; }
            __device__ __forceinline__ void st_b8(void* p, long long i, float v) {
              ((unsigned char*)p)[i] = v != 0.0f ? 1 : 0; }
            __device__ __forceinline__ float ld_e4m3(const void* p, long long i) {
              unsigned int b = ((const unsigned char*)p)[i], e = (b >> 3) & 15u, m = b & 7u;
              float v = (e == 15u && m == 7u) ? __int_as_float(0x7fc00000)
                  : (e == 0u ? ldexpf((float)m, -9) : ldexpf((float)(m + 8u), (int)e - 10));
              return (b & 128u) ? -v : v; }
            __device__ __forceinline__ float ld_e5m2(const void* p, long long i) {
              unsigned int b = ((const unsigned char*)p)[i], e = (b >> 2) & 31u, m = b & 3u;
              float v = e == 31u ? (m == 0u ? __int_as_float(0x7f800000) : __int_as_float(0x7fc00000))
                  : (e == 0u ? ldexpf((float)m, -16) : ldexpf((float)(m + 4u), (int)e - 17));
              return (b & 128u) ? -v : v; }
            __device__ __forceinline__ void st_e4m3(void* p, long long i, float v) {
              unsigned short h; asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(0.0f), "f"(v));
              if (!(fabsf(v) <= 464.0f)) h = 0x7fu;
              ((unsigned char*)p)[i] = (unsigned char)(h & 0xffu); }
            __device__ __forceinline__ void st_e5m2(void* p, long long i, float v) {
              unsigned short h; asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(0.0f), "f"(v));
              if (v != v) h = 0x7fu; else if (fabsf(v) >= 61440.0f) h = v < 0.0f ? 0xfcu : 0x7cu;
              ((unsigned char*)p)[i] = (unsigned char)(h & 0xffu); }
            """;

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

    /** The indexing of a collapsed launch: 32-bit where no index or offset reaches 2^31 (a negative stride keeps 64 bits). */
    static Indexing indexing(Launch l, long n, long rn) {
        long limit = Integer.MAX_VALUE;
        long ra = reach(l.shape(), l.sa()), rr = reach(l.rshape(), l.rsa());
        boolean narrow = n < limit && rn < limit && ra < limit && rr < limit && ra + rr < limit
                && reach(l.shape(), l.so()) < limit && reach(l.shape(), l.sb()) < limit;
        return new Indexing(l.shape().length, l.rshape() == null ? 0 : l.rshape().length, narrow);
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
        long fn = function(key, indexing(l, n, rn));
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
            long blocks = Math.min((n + block - 1) / block, 132L * 32);
            driver.launch(fn, (int) blocks, block, stream, params);
        }
    }
}
