package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.exec.cuda.KernelSource;
import org.hostir.studio.exec.tensor.Float8;
import org.hostir.studio.ir.CastFunctions;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.UnaryOpType;
import org.junit.jupiter.api.Test;

/**
 * The NVRTC sources of the new ops, checked as text (no GPU here): each kernel uses the expression and the
 * load/store helpers of its dtypes, every helper it calls is defined in it, and its braces and parentheses
 * balance. The GPU suite (CudaBackendTest) compiles and runs them on a machine with GPUs.
 */
class CudaKernelSourceTest {
    private static final Pattern CALLED = Pattern.compile("\\b((?:ld|st)_[a-z0-9]+)\\(");
    private static final Pattern DEFINED = Pattern.compile("(?:float|double|void) ((?:ld|st)_[a-z0-9]+)\\(");

    private static void wellFormed(String src) {
        Set<String> defined = new HashSet<>();
        for (Matcher m = DEFINED.matcher(src); m.find(); ) defined.add(m.group(1));
        for (Matcher m = CALLED.matcher(src); m.find(); ) {
            assertTrue(defined.contains(m.group(1)), m.group(1) + " is called but not defined:\n" + src);
        }
        assertEquals(count(src, '{'), count(src, '}'), "braces balance");
        assertEquals(count(src, '('), count(src, ')'), "parentheses balance");
    }

    private static long count(String s, char c) { return s.chars().filter(x -> x == c).count(); }

    private static String body(String src) { return src.substring(src.indexOf("__global__")); }

    @Test
    void everyUnaryOpAndDtypeHasAWellFormedKernel() {
        for (UnaryOpType op : UnaryOpType.values()) {
            for (DataType t : DataType.values()) {
                if (t.isFloat8() && op != UnaryOpType.CAST) continue;
                String src = KernelSource.unary(op, t, t);
                wellFormed(src);
                assertTrue(body(src).contains("ld_"), op + " " + t);
            }
        }
        String gelu = body(KernelSource.unary(UnaryOpType.GELU, DataType.BFLOAT16, DataType.BFLOAT16));
        assertTrue(gelu.contains("ld_bf16(a, oa[u])") && gelu.contains("v[u] = 0.5f * x * (1.0f + erff(")
                && gelu.contains("st_bf16(out, oo[u], v[u])"), gelu);
        assertTrue(body(KernelSource.unary(UnaryOpType.NEG, DataType.FLOAT, DataType.FLOAT)).contains("v[u] = -x;"));
        assertTrue(body(KernelSource.unary(UnaryOpType.RSQRT, DataType.HALF, DataType.HALF)).contains("rsqrtf(x)"));
    }

    /** double (and int32/int64) kernels compute in double: double loads, stores and math functions, no float ones. */
    @Test
    void doubleKernelsComputeInDouble() {
        String exp = body(KernelSource.unary(UnaryOpType.EXP, DataType.DOUBLE, DataType.DOUBLE));
        assertTrue(exp.contains("double x = ld_f64w(a, oa[u])") && exp.contains("v[u] = exp(x);")
                && exp.contains("double v[U]") && exp.contains("st_f64w(out, oo[u], v[u])"), exp);
        String gelu = body(KernelSource.unary(UnaryOpType.GELU, DataType.DOUBLE, DataType.DOUBLE));
        assertTrue(gelu.contains("v[u] = 0.5 * x * (1.0 + erf(x * 0.70710678118654752));"), gelu);
        String sigmoid = body(KernelSource.unary(UnaryOpType.SIGMOID, DataType.DOUBLE, DataType.DOUBLE));
        assertTrue(sigmoid.contains("v[u] = 1.0 / (1.0 + exp(-x));"), sigmoid);
        String floatGelu = body(KernelSource.unary(UnaryOpType.GELU, DataType.FLOAT, DataType.FLOAT));
        assertTrue(floatGelu.contains("erff(x * 0.70710678118654752f)") && floatGelu.contains("float v[U]"), floatGelu);
        String cast = body(KernelSource.unary(UnaryOpType.CAST, DataType.INT64, DataType.DOUBLE));
        assertTrue(cast.contains("ld_i64w(") && cast.contains("st_f64w("), cast);
        String sum = body(KernelSource.reduction(ReductionOpType.SUM, DataType.DOUBLE));
        assertTrue(sum.contains("double x = ld_f64w(a, oa[u] + o)"), sum);
        String full = KernelSource.unary(UnaryOpType.NEG, DataType.DOUBLE, DataType.DOUBLE);
        assertTrue(full.contains("double ld_f64w(const void* p, long long i) { return (double)((const double*)p)[i]; }"),
                "a double is loaded as a double, not through float");
    }

    /** A cast loads the input's type and stores the output's; the store converts (fp8 through PTX cvt). */
    @Test
    void castsLoadOneDtypeAndStoreTheOther() {
        for (DataType from : DataType.values()) {
            for (DataType to : DataType.values()) {
                if (CastFunctions.name(from, to).isEmpty()) continue;
                String src = KernelSource.unary(UnaryOpType.CAST, from, to);
                wellFormed(src);
                String b = body(src);
                assertTrue(b.contains("ld_") && b.contains("st_") && b.contains("v[u] = x;"), from + " -> " + to);
            }
        }
        String e4 = KernelSource.unary(UnaryOpType.CAST, DataType.FLOAT, DataType.FLOAT8_E4M3FN);
        assertTrue(body(e4).contains("st_e4m3(out, oo[u], v[u])"), e4);
        assertTrue(e4.contains("cvt.rn.satfinite.e4m3x2.f32"), e4);
        // beyond the range PyTorch gives NaN (e4m3fn) or infinity (e5m2), not cvt's saturated largest value; the
        // thresholds are the midpoints past the largest value, where round-to-nearest-even leaves the range
        assertTrue(e4.contains("if (!(fabsf(v) <= 464.0f)) h = 0x7fu;"), e4);
        assertTrue(Float.isNaN(Float8.round(464.5f, DataType.FLOAT8_E4M3FN)));
        assertEquals(448f, Float8.round(464f, DataType.FLOAT8_E4M3FN));
        String e5 = KernelSource.unary(UnaryOpType.CAST, DataType.FLOAT, DataType.FLOAT8_E5M2);
        assertTrue(e5.contains("fabsf(v) >= 61440.0f) h = v < 0.0f ? 0xfcu : 0x7cu;"), e5);
        assertEquals(Float.POSITIVE_INFINITY, Float8.round(61440f, DataType.FLOAT8_E5M2));
        assertEquals(57344f, Float8.round(61439f, DataType.FLOAT8_E5M2));
        assertTrue(body(KernelSource.unary(UnaryOpType.CAST, DataType.FLOAT8_E5M2, DataType.HALF))
                .contains("ld_e5m2(a, oa[u])"));
        assertTrue(body(KernelSource.unary(UnaryOpType.CAST, DataType.FLOAT, DataType.INT32)).contains("st_i32w("));
        // issue 30 item 8: an int32 store wraps (through long long) as the CPU backend and PyTorch do, where a
        // plain (int) of an out-of-range double saturates on the GPU; compiled and run only on a GPU machine
        assertTrue(KernelSource.reduction(ReductionOpType.PROD, DataType.INT32)
                .contains("void st_i32w(void* p, long long i, double v) { ((int*)p)[i] = (int)(long long)v; }"));
        assertTrue(body(KernelSource.unary(UnaryOpType.CAST, DataType.BOOL, DataType.DOUBLE)).contains("ld_b8w("));
    }

    @Test
    void reductionsStartFromNvFusersInitialValues() {
        for (ReductionOpType op : ReductionOpType.values()) {
            for (DataType t : DataType.values()) {
                if (!t.isFloat8()) wellFormed(KernelSource.reduction(op, t));
            }
        }
        String min = body(KernelSource.reduction(ReductionOpType.MIN, DataType.FLOAT));
        assertTrue(min.contains("float acc[U] = {__int_as_float(0x7f800000), ") && min.contains("fminf(acc[u], x)"), min);
        String prod = body(KernelSource.reduction(ReductionOpType.PROD, DataType.DOUBLE));
        assertTrue(prod.contains("double acc[U] = {1, 1, 1, 1}") && prod.contains("acc[u] *= x") && prod.contains("ld_f64w("), prod);
        String max = body(KernelSource.reduction(ReductionOpType.MAX, DataType.INT32));
        assertTrue(max.contains("-__int_as_float(0x7f800000)") && max.contains("ld_i32w(") && max.contains("fmax(acc[u], x)"), max);
    }
}
