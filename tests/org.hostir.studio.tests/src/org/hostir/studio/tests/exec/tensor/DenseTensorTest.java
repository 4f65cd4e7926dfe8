package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.F;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.assertValues;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iota;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Rounding;
import org.hostir.studio.ir.DataType;
import org.junit.jupiter.api.Test;

class DenseTensorTest {

    @Test
    void selectIsAViewThatDropsTheAxisAndWritesThrough() {
        DenseTensor t = iota(2, 3, 4);
        DenseTensor s = t.select(1, 2);
        assertArrayEquals(shape(2, 4), s.shape());
        assertEquals(t.get(1, 2, 3), s.get(1, 3));
        s.set(-7f, 1, 3);
        assertEquals(-7f, t.get(1, 2, 3));
        assertTrue(s.sharesBuffer(t));
        s.copyFrom(DenseTensor.zeros(F, 2, 4));
        for (int i = 0; i < 2; i++) for (int k = 0; k < 4; k++) assertEquals(0f, t.get(i, 2, k));
        assertEquals(t.get(0, 1, 0), 4f, "other slices untouched");
    }

    @Test
    void permuteIsAViewAndWritesThrough() {
        DenseTensor t = iota(2, 3);
        DenseTensor p = t.permute(1, 0);
        assertArrayEquals(shape(3, 2), p.shape());
        assertFalse(p.isContiguous());
        assertEquals(t.get(1, 2), p.get(2, 1));
        p.set(100f, 2, 0);
        assertEquals(100f, t.get(0, 2));
        assertValues(p.contiguous(), shape(3, 2), 0, 3, 1, 4, 100, 5);
    }

    @Test
    void narrowKeepsTheAxisAndAliases() {
        DenseTensor t = iota(4, 2);
        DenseTensor n = t.narrow(0, 1, 2);
        assertArrayEquals(shape(2, 2), n.shape());
        assertValues(n, shape(2, 2), 2, 3, 4, 5);
        n.fill(9f);
        assertValues(t, shape(4, 2), 0, 1, 9, 9, 9, 9, 6, 7);
        assertValues(t.slice(0, 3, 1), shape(1, 2), 6, 7);
        assertThrows(IndexOutOfBoundsException.class, () -> t.narrow(0, 3, 2));
    }

    @Test
    void viewsOfViewsCompose() {
        DenseTensor t = iota(2, 3, 4);
        DenseTensor v = t.permute(2, 0, 1).select(1, 1).narrow(1, 1, 2); // [4, 2]: t[1, 1..2, k]
        assertArrayEquals(shape(4, 2), v.shape());
        for (int k = 0; k < 4; k++) {
            for (int j = 0; j < 2; j++) assertEquals(t.get(1, j + 1, k), v.get(k, j));
        }
        v.copyFrom(DenseTensor.zeros(F, 4, 2));
        assertEquals(0f, t.get(1, 2, 3));
        assertEquals(12f, t.get(1, 0, 0));
    }

    @Test
    void contiguousReturnsItselfWhenAlreadyContiguousAndCopiesOtherwise() {
        DenseTensor t = iota(3, 2);
        assertSame(t, t.contiguous());
        DenseTensor row = t.narrow(0, 1, 1);
        assertSame(row, row.contiguous(), "a row of a contiguous tensor is contiguous");
        DenseTensor c = t.permute(1, 0).contiguous();
        assertTrue(c.isContiguous());
        assertFalse(c.sharesBuffer(t));
        DenseTensor copy = t.copy();
        copy.set(5f, 0, 0);
        assertEquals(0f, t.get(0, 0));
    }

    @Test
    void expandUnsqueezeAndReshape() {
        DenseTensor row = DenseTensor.of(F, shape(1, 3), 1, 2, 3);
        assertValues(row.expand(2, 3).contiguous(), shape(2, 3), 1, 2, 3, 1, 2, 3);
        assertValues(row.expand(2, 1, 3).contiguous(), shape(2, 1, 3), 1, 2, 3, 1, 2, 3);
        assertArrayEquals(shape(1, 1, 3), row.unsqueeze(1).shape());
        assertValues(iota(2, 3).reshape(3, 2), shape(3, 2), 0, 1, 2, 3, 4, 5);
        assertValues(iota(2, 3).permute(1, 0).reshape(6), shape(6), 0, 3, 1, 4, 2, 5);
        assertThrows(IllegalArgumentException.class, () -> row.expand(2, 4));
    }

    @Test
    void numelAndBytesFollowTheDtype() {
        assertEquals(24, DenseTensor.zeros(F, 2, 3, 4).numel());
        assertEquals(96, DenseTensor.zeros(F, 2, 3, 4).bytes());
        assertEquals(48, DenseTensor.zeros(DataType.BFLOAT16, 2, 3, 4).bytes());
        assertEquals(48, DenseTensor.zeros(DataType.HALF, 2, 3, 4).bytes());
        DenseTensor scalar = DenseTensor.zeros(F);
        assertEquals(1, scalar.numel());
        scalar.set(3f);
        assertEquals(3f, scalar.get());
        assertEquals(0, DenseTensor.zeros(F, 2, 0).numel());
    }

    @Test
    void bfloat16RoundsToNearestEven() {
        float tie = 1f + 0x1p-8f; // exactly halfway between 1 and 1 + 2^-7: even is 1
        assertEquals(1f, Rounding.round(tie, DataType.BFLOAT16));
        float tieUp = 1f + 3 * 0x1p-8f; // halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even)
        assertEquals(1f + 0x1p-6f, Rounding.round(tieUp, DataType.BFLOAT16));
        assertEquals(1f + 0x1p-7f, Rounding.round(1f + 0x1p-8f + 0x1p-20f, DataType.BFLOAT16), "above half rounds up");
        assertEquals(-1f, Rounding.round(-1f - 0x1p-8f, DataType.BFLOAT16));
        assertEquals(3.140625f, Rounding.round((float) Math.PI, DataType.BFLOAT16));
        assertEquals(Float.POSITIVE_INFINITY, Rounding.round(Float.MAX_VALUE, DataType.BFLOAT16));
        assertTrue(Float.isNaN(Rounding.round(Float.NaN, DataType.BFLOAT16)));
        assertEquals(1f + 0x1p-8f, Rounding.round(1f + 0x1p-8f, DataType.FLOAT));
    }

    @Test
    void halfRoundsToNearestEven() {
        assertEquals(1f, Rounding.round(1f + 0x1p-11f, DataType.HALF)); // tie, even is 1
        assertEquals(1f + 0x1p-9f, Rounding.round(1f + 3 * 0x1p-11f, DataType.HALF));
        assertEquals(Float.POSITIVE_INFINITY, Rounding.round(70000f, DataType.HALF));
    }

    @Test
    void storesRoundToTheDestinationDtype() {
        DenseTensor src = DenseTensor.of(F, shape(3), 1f + 0x1p-8f, 1f + 3 * 0x1p-8f, 2.5f);
        DenseTensor dst = DenseTensor.zeros(DataType.BFLOAT16, 3);
        dst.copyFrom(src);
        assertValues(dst, shape(3), 1f, 1f + 0x1p-6f, 2.5f);
        DenseTensor bf = DenseTensor.of(DataType.BFLOAT16, shape(1), 1f + 0x1p-8f);
        assertEquals(1f, bf.get(0));
        bf.set(1f + 3 * 0x1p-8f, 0);
        assertEquals(1f + 0x1p-6f, bf.get(0));
        // through a permuted view of a bf16 tensor
        DenseTensor wide = DenseTensor.zeros(DataType.BFLOAT16, 2, 2);
        wide.permute(1, 0).copyFrom(DenseTensor.of(F, shape(2, 2), 0, 1f + 0x1p-8f, 2, 3));
        assertValues(wide, shape(2, 2), 0, 2, 1, 3);
    }

    @Test
    void copyBetweenOverlappingViewsReadsTheSourceFirst() {
        DenseTensor t = iota(4);
        t.narrow(0, 1, 3).copyFrom(t.narrow(0, 0, 3));
        assertValues(t, shape(4), 0, 0, 1, 2);
        DenseTensor sq = iota(2, 2);
        sq.copyFrom(sq.permute(1, 0));
        assertValues(sq, shape(2, 2), 0, 2, 1, 3);
    }

    @Test
    void shapeMismatchesAndBadIndicesAreRejected() {
        DenseTensor t = iota(2, 3);
        assertThrows(IllegalArgumentException.class, () -> t.copyFrom(iota(3, 2)));
        assertThrows(IndexOutOfBoundsException.class, () -> t.get(2, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> t.select(2, 0));
        assertThrows(IllegalArgumentException.class, () -> t.permute(0, 0));
        assertThrows(IllegalArgumentException.class, () -> DenseTensor.of(F, shape(2), 1f));
    }
}
