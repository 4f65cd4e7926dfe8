package org.hostir.studio.exec.cuda;

import org.hostir.studio.exec.cuda.Kernels.Key;
import org.hostir.studio.exec.cuda.Kernels.Kind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;

/**
 * The CUDA C of a kernel ({@link Kernels.Key}) in the form one launch needs ({@link Indexing}). Each thread takes
 * {@value #UNROLL} elements a grid-stride apart per round, computes them all before it stores any (loads and
 * stores go through untyped pointers that may alias, so a store would otherwise hold back the next load): a
 * thread keeps several loads in flight, which a memory-bound kernel of 2-byte elements needs to approach the
 * GPU's bandwidth. Consecutive threads still touch consecutive elements, so every load stays coalesced.
 */
final class KernelCode {
    static final int UNROLL = 4;

    private KernelCode() {}

    /**
     * How a launch indexes, fixed per compiled kernel: its (collapsed) output and reduced ranks, so the axis loops
     * unroll with constant subscripts (a variable subscript into the descriptor, a kernel parameter, makes every
     * thread copy the whole descriptor to local memory), and whether every index and offset fits 32 bits, where
     * division is several times cheaper than in 64; {@code vector}: every operand is one contiguous run of 2- or
     * 4-byte floats, 16-byte aligned, {@value VectorKernelCode#VEC} elements to a group ({@link VectorKernelCode}).
     */
    record Indexing(int rank, int reducedRank, boolean narrow, boolean vector) {
        /** The widest form, for reading a kernel's text: 64-bit, every axis. */
        static final Indexing GENERAL = new Indexing(Kernels.MAX_AXES, Kernels.MAX_AXES, false, false);

        String type() { return narrow ? "unsigned int" : "long long"; }
    }

    /**
     * Whether a kernel over these dtypes computes in double: a double tensor holds float64 values, and int32/int64
     * ones are exact in double to 2^53 where float keeps 24 bits.
     */
    static boolean wide(DataType... types) {
        for (DataType t : types) {
            if (t == DataType.DOUBLE || t == DataType.INT64 || t == DataType.INT32) return true;
        }
        return false;
    }

    static boolean wide(Key k) { return wide(k.out(), k.a(), k.b()); }

    /** The load or store helper of {@code t} in the kernel's compute type. */
    private static String io(String op, DataType t, boolean wide) { return op + "_" + t(t) + (wide ? "w" : ""); }

    static String source(Key k, Indexing ix) {
        if (ix.vector()) return VectorKernelCode.source(k, ix);
        String idx = ix.type();
        String real = wide(k) ? "double" : "float";
        StringBuilder s = new StringBuilder(PRELUDE).append(WIDE_PRELUDE).append("#define U ").append(UNROLL).append('\n');
        s.append(gridLoop(k, idx, "(" + idx + ")d.n"))
                .append("    ").append(idx).append(" oo[U], oa[U], ob[U]; ").append(real).append(" v[U];\n")
                .append(UNROLLED)
                .append("    for (int u = 0; u < U; u++) {\n")
                .append("      ").append(idx).append(" i = base + u * step, r = i < n ? i : 0;\n")
                .append("      oo[u] = 0; oa[u] = 0; ob[u] = 0;\n");
        // the outermost axis needs no division (r is its index)
        for (int a = ix.rank() - 1; a > 0; a--) {
            s.append("      { ").append(idx).append(" c = r % (").append(idx).append(")d.shape[").append(a)
                    .append("]; r /= (").append(idx).append(")d.shape[").append(a).append("];")
                    .append(" oo[u] += c * d.so[").append(a).append("]; oa[u] += c * d.sa[").append(a)
                    .append("]; ob[u] += c * d.sb[").append(a).append("]; }\n");
        }
        s.append("      oo[u] += r * d.so[0]; oa[u] += r * d.sa[0]; ob[u] += r * d.sb[0];\n");
        String body = switch (k.kind()) {
            case MAP -> mapBody(k) + "    }\n";
            case REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD -> "    }\n" + reduceBody(k, ix);
            case FILL -> fillBody(k) + "    }\n";
        };
        return s.append(body)
                .append(UNROLLED)
                .append("    for (int u = 0; u < U; u++) if (base + u * step < n) ").append(io("st", k.out(), wide(k)))
                .append("(out, oo[u], v[u]);\n")
                .append("  }\n}\n").toString();
    }

    static final String UNROLLED = "#pragma unroll\n";

    /**
     * The kernel's signature and its grid-stride loop over {@code count} items ({@code n}), U a grid-stride apart
     * per round (each form's body and stores follow, then the loop and function close).
     */
    static String gridLoop(Key k, String idx, String count) {
        return "extern \"C\" __global__ void " + k.name() + "(void* out, const void* a, const void* b, Desc d) {\n"
                + "  const " + idx + " n = " + count + ", step = (" + idx + ")gridDim.x * blockDim.x;\n"
                + "  for (" + idx + " base = blockIdx.x * (" + idx + ")blockDim.x + threadIdx.x; base < n;"
                + " base += U * step) {\n";
    }

    private static String mapBody(Key k) {
        boolean w = wide(k);
        String real = w ? "double" : "float";
        return "      " + real + " x = " + io("ld", k.a(), w) + "(a, oa[u]);\n"
                + (k.expr().contains("y") ? "      " + real + " y = " + io("ld", k.b(), w) + "(b, ob[u]);\n" : "")
                + "      v[u] = " + k.expr() + ";\n";
    }

    /** Reduced elements outer, the thread's outputs inner: each step issues one load per output at once. */
    private static String reduceBody(Key k, Indexing ix) {
        boolean w = wide(k);
        return "    " + (w ? "double" : accumulatorType(k.kind())) + " acc[U] = {"
                + String.join(", ", java.util.Collections.nCopies(UNROLL, identity(k.kind()))) + "};\n"
                + reducedLoopHead(ix)
                + UNROLLED
                + "      for (int u = 0; u < U; u++) { " + (w ? "double" : "float") + " x = " + io("ld", k.a(), w)
                + "(a, oa[u] + o); " + combine(k.kind(), "acc[u]", "x", w) + "; }\n"
                + "    }\n"
                + UNROLLED
                + "    for (int u = 0; u < U; u++) v[u] = (" + (w ? "double" : "float") + ")acc[u];\n";
    }

    /** The loop over the reduced elements, up to the offset {@code o} of element {@code j} (the loop stays open). */
    static String reducedLoopHead(Indexing ix) {
        String idx = ix.type();
        StringBuilder s = new StringBuilder("    for (").append(idx).append(" j = 0; j < (").append(idx)
                .append(")d.rn; j++) {\n      ").append(idx).append(" q = j, o = 0;\n");
        for (int a = ix.reducedRank() - 1; a > 0; a--) {
            s.append("      { ").append(idx).append(" c = q % (").append(idx).append(")d.rshape[").append(a)
                    .append("]; q /= (").append(idx).append(")d.rshape[").append(a).append("]; o += c * d.rsa[")
                    .append(a).append("]; }\n");
        }
        return s.append("      o += q * d.rsa[0];\n").toString();
    }

    static Kind reduction(ReductionOpType op) {
        return switch (op) {
            case SUM -> Kind.REDUCE_SUM;
            case MAX -> Kind.REDUCE_MAX;
            case MIN -> Kind.REDUCE_MIN;
            case PROD -> Kind.REDUCE_PROD;
        };
    }

    /** The accumulator's type: nvFuser accumulates sums and products in double. */
    static String accumulatorType(Kind kind) {
        return switch (kind) {
            case REDUCE_SUM, REDUCE_PROD -> "double";
            case REDUCE_MAX, REDUCE_MIN -> "float";
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

    /**
     * One step folding {@code v} into {@code acc} (in double where {@code wide}); max and min propagate NaN as
     * torch's reductions do.
     */
    static String combine(Kind kind, String acc, String v, boolean wide) {
        String f = wide ? "" : "f";
        return switch (kind) {
            case REDUCE_SUM -> acc + " += " + v;
            case REDUCE_PROD -> acc + " *= " + v;
            case REDUCE_MAX -> acc + " = (" + v + " != " + v + " || " + acc + " != " + acc
                    + ") ? __int_as_float(0x7fc00000) : fmax" + f + "(" + acc + ", " + v + ")";
            case REDUCE_MIN -> acc + " = (" + v + " != " + v + " || " + acc + " != " + acc
                    + ") ? __int_as_float(0x7fc00000) : fmin" + f + "(" + acc + ", " + v + ")";
            case MAP, FILL -> throw new IllegalArgumentException(kind + " is not a reduction");
        };
    }

    private static String fillBody(Key k) {
        return "      unsigned long long h = (unsigned long long)(i + 1) * 0x9E3779B97F4A7C15ull"
                + " + (unsigned long long)d.sb[0];\n"
                + "      h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29;\n"
                // standard normal values (Box-Muller), as torch.randn fills the baseline's operands: a
                // tensor-core GEMM's speed depends on its data, so both sides multiply alike
                + "      float u1 = ((float)(h >> 40) + 1.0f) * 5.9604645e-8f;\n"
                + "      float u2 = (float)((h >> 16) & 0xffffff) * 5.9604645e-8f;\n"
                + "      v[u] = sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2);\n";
    }

    static String t(DataType d) {
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

    static final String PRELUDE = """
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


    /**
     * The double-precision loads and stores: exact for double, int32 and int64; the other dtypes go through their
     * float helpers (their values are floats).
     */
    static final String WIDE_PRELUDE = wideHelpers();

    private static String wideHelpers() {
        StringBuilder s = new StringBuilder();
        for (DataType d : DataType.values()) {
            String t = t(d);
            String c = switch (d) {
                case DOUBLE -> "double";
                case INT64 -> "long long";
                case INT32 -> "int";
                case FLOAT, BFLOAT16, HALF, BOOL, FLOAT8_E4M3FN, FLOAT8_E5M2 -> null;
            };
            s.append("__device__ __forceinline__ double ld_").append(t).append("w(const void* p, long long i) { return ")
                    .append(c == null ? "(double)ld_" + t + "(p, i)" : "(double)((const " + c + "*)p)[i]")
                    .append("; }\n");
            // an int32 store wraps through long long as the CPU backend's (two's complement, like PyTorch's int32);
            // the value is exact in double to 2^53 (the kernels do not compute in integers yet: docs/conformance.md)
            String store = d == DataType.INT32 ? "((int*)p)[i] = (int)(long long)v"
                    : "((" + c + "*)p)[i] = (" + c + ")v";
            s.append("__device__ __forceinline__ void st_").append(t).append("w(void* p, long long i, double v) { ")
                    .append(c == null ? "st_" + t + "(p, i, (float)v)" : store)
                    .append("; }\n");
        }
        return s.toString();
    }
}
