package org.hostir.studio.exec.cuda;

import org.hostir.studio.ir.DataType;

/**
 * The CUDA C of the ops that move elements by an index (issue 39): index_select and take_along_axis (one gather
 * kernel), scatter and topk. Elements are copied as raw words of their dtype's size, so every dtype arrives
 * bit-exact; only topk compares values, in double, as the CPU backend's {@code getDouble} does. One thread per
 * output element (gather), per index element (scatter) or per input element (topk). An index outside its axis, or
 * two scatter entries writing one element, is written to {@code err} ({code, value}) and the op's caller reads it
 * back and fails the run, as the CPU backend's kernels do; the output is then not used.
 */
final class IndexKernelCode {
    private IndexKernelCode() {}

    /** What a kernel does; {@code INDICES} and {@code LARGEST} are topk's two switches. */
    enum Form { GATHER, SCATTER, TOPK_VALUES, TOPK_INDICES, TOPK_SMALLEST_VALUES, TOPK_SMALLEST_INDICES }

    /** Error codes in {@code err[0]}. */
    static final long OUT_OF_RANGE = 1, DUPLICATE = 2;

    /**
     * The descriptor every form takes by value (longs): the iterated shape, {@code c} its coordinate at {@code dim},
     * and the strides of the output ({@code so}), the input or src ({@code sx}), the index ({@code si}) and the
     * marks ({@code sm}) over it, each 0 at {@code dim} where the operand steps there by the index or the place
     * instead: by {@code sdim} (gather's and topk's input, scatter's output) and {@code mdim} (scatter's marks,
     * topk's output).
     */
    static final int RANK = 0, DIM = 1, N = 2, EXTENT = 3, K = 4, SDIM = 5, MDIM = 6, SHAPE = 8, SO = 16, SX = 24,
            SI = 32, SM = 40, LONGS = 48;

    static String name(Form form, DataType element, DataType index) {
        return "k_" + form.name().toLowerCase(java.util.Locale.ROOT) + "_" + KernelCode.t(element)
                + (index == null ? "" : "_" + KernelCode.t(index));
    }

    /** Unsigned word of the dtype's size: a copy through it keeps every bit. */
    private static String word(DataType t) {
        return switch (t.bytes()) {
            case 1 -> "unsigned char";
            case 2 -> "unsigned short";
            case 4 -> "unsigned int";
            default -> "unsigned long long";
        };
    }

    private static String indexType(DataType t) { return t == DataType.INT32 ? "int" : "long long"; }

    private static final String HEAD = """
            struct IDesc { long long rank, dim, n, extent, k, sdim, mdim, pad;
                           long long shape[8], so[8], sx[8], si[8], sm[8]; };
            __device__ __forceinline__ void report(unsigned long long* err, unsigned long long code, long long v) {
              if (atomicCAS(err, 0ull, code) == 0ull) err[1] = (unsigned long long)v; }
            """;

    /** The signature and the grid-stride loop over {@code d.n} items, each item's coordinates folded into offsets. */
    private static String loop(String name) {
        return "extern \"C\" __global__ void " + name + "(void* out, const void* x, const void* idx,"
                + " unsigned long long* err, unsigned int* mark, IDesc d) {\n"
                + "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < d.n;"
                + " i += (long long)gridDim.x * blockDim.x) {\n"
                + "    long long r = i, oo = 0, ox = 0, oi = 0, om = 0, c = 0;\n"
                + "#pragma unroll\n"
                + "    for (int a = 7; a >= 0; a--) {\n"
                + "      if (a < d.rank) {\n"
                + "        long long e = r % d.shape[a]; r /= d.shape[a];\n"
                + "        if (a == d.dim) c = e;\n"
                + "        oo += e * d.so[a]; ox += e * d.sx[a]; oi += e * d.si[a]; om += e * d.sm[a];\n"
                + "      }\n"
                + "    }\n";
    }

    /**
     * index_select and take_along_axis over the output's shape: {@code si} steps the index (index_select's 1-D
     * index only along {@code dim}), {@code sx} the input off {@code dim} (0 where it broadcasts), {@code sdim} the
     * input along it.
     */
    static String gather(DataType element, DataType index) {
        String w = word(element);
        return HEAD + loop(name(Form.GATHER, element, index))
                + "    long long row = (long long)((const " + indexType(index) + "*)idx)[oi];\n"
                + "    if (row < 0 || row >= d.extent) { report(err, " + OUT_OF_RANGE + "ull, row); continue; }\n"
                + "    ((" + w + "*)out)[oo] = ((const " + w + "*)x)[ox + row * d.sdim];\n"
                + "  }\n}\n";
    }

    /**
     * scatter over the index's shape into a copy of self already in {@code out}: {@code so} and {@code sdim} step
     * the output, {@code sx} src, {@code si} the index, {@code sm} and {@code mdim} a zeroed mark per output
     * element (contiguous), whose count finds two entries writing one element.
     */
    static String scatter(DataType element) {
        String w = word(element);
        return HEAD + loop(name(Form.SCATTER, element, DataType.INT64))
                + "    long long row = ((const long long*)idx)[oi];\n"
                + "    if (row < 0 || row >= d.extent) { report(err, " + OUT_OF_RANGE + "ull, row); continue; }\n"
                + "    om += row * d.mdim;\n"
                + "    if (atomicAdd(mark + om, 1u) != 0u) { report(err, " + DUPLICATE + "ull, om); continue; }\n"
                + "    ((" + w + "*)out)[oo + row * d.sdim] = ((const " + w + "*)x)[ox];\n"
                + "  }\n}\n";
    }

    /**
     * topk over the input's shape, one thread per element: its place in the line's order is the number of
     * elements before it (a larger value, NaN largest, -0.0 below 0.0, or an equal one at a lower position: Java's
     * {@code Double.compare} then position, the CPU backend's order), and it is written there when below k.
     * The order is total, so the places are a permutation and every output position is written exactly once.
     */
    static String topk(Form form, DataType element) {
        boolean indices = form == Form.TOPK_INDICES || form == Form.TOPK_SMALLEST_INDICES;
        boolean largest = form == Form.TOPK_VALUES || form == Form.TOPK_INDICES;
        String w = word(element), ld = "ld_" + KernelCode.t(element) + "w";
        return KernelCode.PRELUDE + KernelCode.WIDE_PRELUDE + HEAD
                + "__device__ __forceinline__ int cmp(double a, double b) {\n"
                + "  bool an = a != a, bn = b != b;\n"
                + "  if (an || bn) return an && bn ? 0 : (an ? 1 : -1);\n"
                + "  if (a < b) return -1;\n  if (a > b) return 1;\n"
                + "  long long ab = __double_as_longlong(a), bb = __double_as_longlong(b);\n"
                + "  return ab == bb ? 0 : (ab < bb ? -1 : 1); }\n"
                + loop(name(form, element, null))
                + "    double v = " + ld + "(x, ox + c * d.sdim);\n"
                + "    long long place = 0;\n"
                + "    for (long long j = 0; j < d.extent; j++) {\n"
                + "      if (j == c) continue;\n"
                + "      int s = cmp(" + ld + "(x, ox + j * d.sdim), v);\n"
                + "      if (s " + (largest ? ">" : "<") + " 0 || (s == 0 && j < c)) place++;\n"
                + "    }\n"
                + "    if (place >= d.k) continue;\n"
                + (indices ? "    ((long long*)out)[oo + place * d.mdim] = c;\n"
                        : "    ((" + w + "*)out)[oo + place * d.mdim] = ((const " + w + "*)x)[ox + c * d.sdim];\n")
                + "  }\n}\n";
    }
}
