package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.FusionLoader;
import org.junit.jupiter.api.Test;

/** Bad dtype combinations, each refused with its rule and a message naming the dtypes. */
class DtypeRulesTest {
    private static String fusion(String tensors, String op, String inputs) {
        return Fixtures.text(Fixtures.single(tensors, "[" + op + "]", inputs, "['out']"));
    }

    private static Diagnostic refused(String text) {
        FusionFileException e = assertThrows(FusionFileException.class, () -> FusionLoader.load(text, "t.fusion", 1));
        List<Diagnostic> ds = e.diagnostics();
        assertEquals(1, ds.size(), ds.toString());
        return ds.getFirst();
    }

    private static void ok(String text) throws Exception { FusionLoader.load(text, "t.fusion", 1); }

    @Test
    void floatOpsOfIntegersGiveFloat() throws Exception {
        String op = "{'op': 'exp', 'inputs': ['p'], 'output': 'out'}";
        Diagnostic d = refused(fusion("[{'name': 'p', 'dtype': 'int32', 'axes': ['M']},"
                + " {'name': 'out', 'dtype': 'int32', 'axes': ['M']}]", op, "['p']"));
        assertEquals("dtype.mismatch", d.rule());
        assertEquals("'out' = exp('p'): out is int32, but exp of int32 gives float", d.message());
        ok(fusion("[{'name': 'p', 'dtype': 'int32', 'axes': ['M']}, {'name': 'out', 'dtype': 'float', 'axes': ['M']}]",
                op, "['p']"));
        // abs and neg keep an integer dtype
        ok(fusion("[{'name': 'p', 'dtype': 'int32', 'axes': ['M']}, {'name': 'out', 'dtype': 'int32', 'axes': ['M']}]",
                "{'op': 'abs', 'inputs': ['p'], 'output': 'out'}", "['p']"));
    }

    /**
     * Issue 30 item 8: bool ops as PyTorch has them. PyTorch refuses -t and t - u on bool
     * (aten/src/ATen/native/UnaryOps.cpp TORCH_META_FUNC(neg), BinaryOps.cpp sub_check), divides bools as floats,
     * and sums bool into int64 (ReduceOps.cpp; nvFuser's sum likewise, csrc/ops/arith.cpp:1476-1481). They were
     * accepted and computed a bool.
     */
    @Test
    void boolOpsFollowPyTorch() throws Exception {
        String tensors = "[{'name': 'p', 'dtype': 'bool', 'axes': ['M']},"
                + " {'name': 'out', 'dtype': '%s', 'axes': [%s]}]";
        Diagnostic neg = refused(fusion(tensors.formatted("bool", "'M'"),
                "{'op': 'neg', 'inputs': ['p'], 'output': 'out'}", "['p']"));
        assertEquals("dtype.bool", neg.rule());
        assertEquals("'out' = neg('p'): negation of a bool tensor is not supported (PyTorch refuses it: invert a mask"
                + " with where, or cast to an integer first)", neg.message());
        assertEquals("dtype.bool", refused(fusion(tensors.formatted("bool", "'M'"),
                "{'op': 'sub', 'inputs': ['p', 'p'], 'output': 'out'}", "['p']")).rule());
        // Activation.cpp relu: "Boolean inputs not supported for relu"; abs of bool is the identity there
        assertEquals("dtype.bool", refused(fusion(tensors.formatted("bool", "'M'"),
                "{'op': 'relu', 'inputs': ['p'], 'output': 'out'}", "['p']")).rule());
        ok(fusion(tensors.formatted("bool", "'M'"), "{'op': 'abs', 'inputs': ['p'], 'output': 'out'}", "['p']"));
        assertEquals("dtype.bool", refused(fusion(tensors.formatted("bool", "'M'"),
                "{'op': 'div', 'inputs': ['p', 'p'], 'output': 'out'}", "['p']")).rule());
        Diagnostic sum = refused(fusion(tensors.formatted("bool", "{'extent': 'M', 'iter': 'reduction'}"),
                "{'op': 'sum', 'inputs': ['p'], 'output': 'out', 'axes': [0]}", "['p']"));
        assertEquals("dtype.bool", sum.rule());
        assertEquals("'out' = sum('p'): sum of bool gives int64 in PyTorch and nvFuser, not bool: cast the input to"
                + " int64 and make out int64", sum.message());
        // what PyTorch allows stays: add (or), mul (and), max (any), a cast to int64 then a sum, abs keeps int
        ok(fusion(tensors.formatted("bool", "'M'"), "{'op': 'add', 'inputs': ['p', 'p'], 'output': 'out'}", "['p']"));
        ok(fusion(tensors.formatted("bool", "'M'"), "{'op': 'mul', 'inputs': ['p', 'p'], 'output': 'out'}", "['p']"));
        ok(fusion(tensors.formatted("bool", "{'extent': 'M', 'iter': 'reduction'}"),
                "{'op': 'max', 'inputs': ['p'], 'output': 'out', 'axes': [0]}", "['p']"));
        ok(fusion(tensors.formatted("int64", "'M'"), "{'op': 'cast', 'inputs': ['p'], 'output': 'out'}", "['p']"));
    }

    @Test
    void castsNeedACastFunction() throws Exception {
        String tensors = "[{'name': 'p', 'dtype': '%s', 'axes': ['M']}, {'name': 'out', 'dtype': '%s', 'axes': ['M']}]";
        String op = "{'op': 'cast', 'inputs': ['p'], 'output': 'out'}";
        Diagnostic d = refused(fusion(tensors.formatted("float8_e5m2", "float8_e4m3fn"), op, "['p']"));
        assertEquals("dtype.cast", d.rule());
        assertEquals("'out' = cast('p'): cannot cast float8_e5m2 to float8_e4m3fn (nvFuser has no cast function for the"
                + " pair)", d.message());
        assertEquals("dtype.cast", refused(fusion(tensors.formatted("bool", "float8_e4m3fn"), op, "['p']")).rule());
        ok(fusion(tensors.formatted("bfloat16", "float8_e5m2"), op, "['p']"));
        ok(fusion(tensors.formatted("bool", "half"), op, "['p']"));
        ok(fusion(tensors.formatted("float", "float"), op, "['p']"));
    }

    @Test
    void fp8IsForMatmulsAndWhereNeedsABoolCondition() throws Exception {
        Diagnostic d = refused(fusion("[{'name': 'p', 'dtype': 'float8_e4m3fn', 'axes': ['M']},"
                + " {'name': 'out', 'dtype': 'float8_e4m3fn', 'axes': ['M']}]",
                "{'op': 'add', 'inputs': ['p', 'p'], 'output': 'out'}", "['p']"));
        assertEquals("dtype.fp8", d.rule());
        String gemm = "[{'name': 'a', 'dtype': '%s', 'axes': ['M', 'K']}, {'name': 'b', 'dtype': '%s', 'axes': ['K', 'N']},"
                + " {'name': 'out', 'dtype': '%s', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}]";
        String mm = "{'op': 'matmul', 'inputs': ['a', 'b'], 'output': 'out'}";
        assertEquals("dtype.matmul", refused(fusion(gemm.formatted("float8_e4m3fn", "float8_e4m3fn",
                "float8_e4m3fn"), mm, "['a', 'b']")).rule());
        assertEquals("dtype.matmul", refused(fusion(gemm.formatted("float8_e4m3fn", "bfloat16", "bfloat16"), mm,
                "['a', 'b']")).rule());
        assertEquals("dtype.matmul", refused(fusion(gemm.formatted("int32", "int32", "int32"), mm, "['a', 'b']")).rule());
        ok(fusion(gemm.formatted("float8_e4m3fn", "float8_e5m2", "half"), mm, "['a', 'b']"));
        ok(fusion(gemm.formatted("double", "double", "double"), mm, "['a', 'b']"));
        Diagnostic w = refused(fusion("[{'name': 'c', 'dtype': 'float', 'axes': ['M']},"
                + " {'name': 'p', 'dtype': 'float', 'axes': ['M']}, {'name': 'out', 'dtype': 'float', 'axes': ['M']}]",
                "{'op': 'where', 'inputs': ['c', 'p', 'p'], 'output': 'out'}", "['c', 'p']"));
        assertEquals("dtype.mismatch", w.rule());
        assertEquals("'out' = where('c', 'p', 'p'): the condition c is float, not bool", w.message());
    }
}
