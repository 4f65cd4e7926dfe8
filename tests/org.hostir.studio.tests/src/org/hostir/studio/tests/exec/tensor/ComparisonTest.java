package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.F;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iota;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Tolerance;
import org.hostir.studio.ir.DataType;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    @Test
    void equalTensorsPass() {
        DenseTensor a = Inputs.uniform(shape(3, 4, 5), F, 9);
        Comparison.Result r = Comparison.compare(a, a.copy());
        assertTrue(r.passed());
        assertEquals(0, r.maxAbsError());
        assertEquals("PASS max_abs_err=0.000e+00 worst=0.00 of allowed", r.summary());
        assertEquals(0, r.worstFraction());
    }

    @Test
    void aOneElementDifferenceIsCaughtAndLocated() {
        DenseTensor expected = Inputs.uniform(shape(3, 4, 5), F, 9);
        DenseTensor actual = expected.copy();
        actual.set(actual.get(1, 2, 3) + 0.5f, 1, 2, 3);
        Comparison.Result r = Comparison.compare(expected, actual);
        assertFalse(r.passed());
        assertEquals(List.of(1L, 2L, 3L), r.worstIndex());
        assertEquals(0.5, r.maxAbsError(), 1e-6);
        assertEquals(expected.get(1, 2, 3), r.expected());
        assertEquals(actual.get(1, 2, 3), r.actual());
        assertTrue(r.summary().startsWith("FAIL max_abs_err=5.000e-01 worst="), r.summary());
        assertTrue(r.summary().contains(" of allowed at [1, 2, 3]: "), r.summary());
        assertTrue(r.summary().endsWith("(atol 1.0E-4, rtol 1.0E-4)"), r.summary());
    }

    @Test
    void differencesWithinTheDtypesToleranceAreAccepted() {
        DenseTensor expected = DenseTensor.of(F, shape(2), 1f, 100f);
        DenseTensor close = DenseTensor.of(F, shape(2), 1.00005f, 100.005f);
        assertTrue(Comparison.compare(expected, close).passed());
        DenseTensor far = DenseTensor.of(F, shape(2), 1.001f, 100f);
        assertFalse(Comparison.compare(expected, far).passed());
        // the same difference passes in bfloat16, whose tolerance is 2e-2
        DenseTensor bf = DenseTensor.of(DataType.BFLOAT16, shape(2), 1.0078125f, 100f);
        assertTrue(Comparison.compare(expected, bf).passed());
        assertTrue(Comparison.compare(expected, bf).explanation().startsWith("atol 0.02"));
        assertFalse(Comparison.compare(expected, far, Tolerance.EXACT).passed());
    }

    @Test
    void worstIndexIsTheWorstViolationNotTheLargestAllowedDifference() {
        DenseTensor expected = DenseTensor.of(F, shape(2), 1000f, 0f);
        DenseTensor actual = DenseTensor.of(F, shape(2), 1000.05f, 0.01f);
        Comparison.Result r = Comparison.compare(expected, actual);
        assertFalse(r.passed());
        assertEquals(List.of(1L), r.worstIndex());
        assertEquals(0.05, r.maxAbsError(), 1e-3);
    }

    @Test
    void shapesMustMatchExactly() {
        Comparison.Result r = Comparison.compare(iota(2, 3), iota(3, 2));
        assertFalse(r.passed());
        assertTrue(r.summary().contains("shape"), r.summary());
        assertFalse(Comparison.compare(iota(6), iota(1, 6)).passed());
    }

    @Test
    void nanMatchesOnlyNan() {
        DenseTensor nan = DenseTensor.of(F, shape(2), Float.NaN, Float.POSITIVE_INFINITY);
        assertTrue(Comparison.compare(nan, nan.copy()).passed());
        Comparison.Result r = Comparison.compare(nan, DenseTensor.of(F, shape(2), 0f, Float.POSITIVE_INFINITY));
        assertFalse(r.passed());
        assertEquals(List.of(0L), r.worstIndex());
        assertEquals(Double.POSITIVE_INFINITY, r.maxAbsError());
    }
}
