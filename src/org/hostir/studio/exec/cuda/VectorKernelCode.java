package org.hostir.studio.exec.cuda;

import java.util.Set;

import org.hostir.studio.exec.cuda.KernelCode.Indexing;
import org.hostir.studio.exec.cuda.Kernels.Key;
import org.hostir.studio.exec.cuda.Kernels.Kind;
import org.hostir.studio.ir.DataType;

/**
 * The vector form of a MAP or reduction kernel, for the common launch where output and operands are each one
 * contiguous run of float, bfloat16 or half elements (a sum of stacked partials, a cast, an elementwise op of
 * same-shaped tensors): a thread moves {@value #VEC} elements per 16-byte load or store (two for float) instead of
 * one 2- or 4-byte access each, and takes {@link KernelCode#UNROLL} such groups a grid-stride apart, so a
 * memory-bound kernel keeps enough bytes in flight to approach the GPU's bandwidth.
 */
final class VectorKernelCode {
    /** Elements per group: 16 bytes of 2-byte elements. */
    static final int VEC = 8;
    /** The dtypes with vector helpers; the others keep the scalar form. */
    static final Set<DataType> TYPES = Set.of(DataType.FLOAT, DataType.BFLOAT16, DataType.HALF);

    private VectorKernelCode() {}

    static String source(Key k, Indexing ix) {
        String idx = ix.type();
        StringBuilder s = new StringBuilder(KernelCode.PRELUDE).append(HELPERS).append("#define U ")
                .append(KernelCode.UNROLL).append("\n#define VEC ").append(VEC).append('\n');
        s.append(KernelCode.gridLoop(k, idx, "(" + idx + ")d.n / VEC"))
                .append("    ").append(idx).append(" e[U]; float v[U][VEC];\n")
                .append(KernelCode.UNROLLED)
                .append("    for (int u = 0; u < U; u++) { ").append(idx)
                .append(" i = base + u * step; e[u] = (i < n ? i : 0) * VEC; }\n");
        s.append(switch (k.kind()) {
            case MAP -> mapBody(k);
            case REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD -> reduceBody(k, ix);
            case FILL -> throw new IllegalArgumentException("FILL has no vector form");
        });
        return s.append(KernelCode.UNROLLED)
                .append("    for (int u = 0; u < U; u++) if (base + u * step < n) stv_").append(KernelCode.t(k.out()))
                .append("(out, e[u], v[u]);\n")
                .append("  }\n}\n").toString();
    }

    private static String mapBody(Key k) {
        boolean y = k.expr().contains("y");
        return KernelCode.UNROLLED
                + "    for (int u = 0; u < U; u++) {\n"
                + "      float xs[VEC]; ldv_" + KernelCode.t(k.a()) + "(a, e[u], xs);\n"
                + (y ? "      float ys[VEC]; ldv_" + KernelCode.t(k.b()) + "(b, e[u], ys);\n" : "")
                + KernelCode.UNROLLED
                + "      for (int w = 0; w < VEC; w++) { float x = xs[w]; " + (y ? "float y = ys[w]; " : "")
                + "v[u][w] = " + k.expr() + "; }\n"
                + "    }\n";
    }

    private static String reduceBody(Key k, Indexing ix) {
        Kind kind = k.kind();
        return "    " + KernelCode.accumulatorType(kind) + " acc[U][VEC];\n"
                + KernelCode.UNROLLED
                + "    for (int u = 0; u < U; u++) for (int w = 0; w < VEC; w++) acc[u][w] = "
                + KernelCode.identity(kind) + ";\n"
                + KernelCode.reducedLoopHead(ix)
                + KernelCode.UNROLLED
                + "      for (int u = 0; u < U; u++) {\n"
                + "        float xs[VEC]; ldv_" + KernelCode.t(k.a()) + "(a, e[u] + o, xs);\n"
                + KernelCode.UNROLLED
                + "        for (int w = 0; w < VEC; w++) { float x = xs[w]; "
                + KernelCode.combine(kind, "acc[u][w]", "x", false) + "; }\n"
                + "      }\n"
                + "    }\n"
                + KernelCode.UNROLLED
                + "    for (int u = 0; u < U; u++) for (int w = 0; w < VEC; w++) v[u][w] = (float)acc[u][w];\n";
    }

    /**
     * Group loads and stores: one 16-byte access for 8 bf16 or half elements, two for float, little-endian (the
     * element at the lower address in the lower bits). The stores round as the scalar st_ helpers do.
     */
    private static final String HELPERS = """
            struct alignas(16) V16 { unsigned int w[4]; };
            __device__ __forceinline__ unsigned int bf16_bits(float v) {
              unsigned int u = __float_as_uint(v);
              return (v != v) ? 0x7fc0u : ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); }
            __device__ __forceinline__ unsigned int f16_bits(float v) {
              unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v)); return h; }
            __device__ __forceinline__ float f16_float(unsigned int bits) {
              unsigned short h = (unsigned short)bits; float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
            __device__ __forceinline__ void ldv_f32(const void* p, long long i, float* x) {
              const V16* q = (const V16*)((const float*)p + i); V16 a0 = q[0], a1 = q[1];
            #pragma unroll
              for (int k = 0; k < 4; k++) { x[k] = __uint_as_float(a0.w[k]); x[4 + k] = __uint_as_float(a1.w[k]); } }
            __device__ __forceinline__ void ldv_bf16(const void* p, long long i, float* x) {
              V16 q = *(const V16*)((const unsigned short*)p + i);
            #pragma unroll
              for (int k = 0; k < 4; k++) {
                x[2 * k] = __uint_as_float(q.w[k] << 16); x[2 * k + 1] = __uint_as_float(q.w[k] & 0xffff0000u); } }
            __device__ __forceinline__ void ldv_f16(const void* p, long long i, float* x) {
              V16 q = *(const V16*)((const unsigned short*)p + i);
            #pragma unroll
              for (int k = 0; k < 4; k++) { x[2 * k] = f16_float(q.w[k] & 0xffffu); x[2 * k + 1] = f16_float(q.w[k] >> 16); } }
            __device__ __forceinline__ void stv_f32(void* p, long long i, const float* v) {
              V16 a0, a1;
            #pragma unroll
              for (int k = 0; k < 4; k++) { a0.w[k] = __float_as_uint(v[k]); a1.w[k] = __float_as_uint(v[4 + k]); }
              V16* q = (V16*)((float*)p + i); q[0] = a0; q[1] = a1; }
            __device__ __forceinline__ void stv_bf16(void* p, long long i, const float* v) {
              V16 q;
            #pragma unroll
              for (int k = 0; k < 4; k++) q.w[k] = bf16_bits(v[2 * k]) | (bf16_bits(v[2 * k + 1]) << 16);
              *(V16*)((unsigned short*)p + i) = q; }
            __device__ __forceinline__ void stv_f16(void* p, long long i, const float* v) {
              V16 q;
            #pragma unroll
              for (int k = 0; k < 4; k++) q.w[k] = f16_bits(v[2 * k]) | (f16_bits(v[2 * k + 1]) << 16);
              *(V16*)((unsigned short*)p + i) = q; }
            """;
}
