package org.hostir.studio.tests.exec.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.NpyFiles;
import org.hostir.studio.ir.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** .npy files as NumPy reads them: magic, version 1.0, a 64-byte aligned header dict, little-endian C-order data. */
class NpyFilesTest {
    private static String header(byte[] b) {
        int len = ByteBuffer.wrap(b, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff;
        return new String(b, 10, len, StandardCharsets.US_ASCII);
    }

    @Test
    void floatTensorsKeepShapeOrderAndValues(@TempDir Path dir) throws Exception {
        DenseTensor t = DenseTensor.of(DataType.FLOAT, new long[] {2, 3}, 1f, -2f, 3.5f, 4f, 5f, -0.25f);
        Path f = dir.resolve("t.npy");
        NpyFiles.write(t.permute(1, 0), f); // a strided view is written in its own (row-major) order
        byte[] b = Files.readAllBytes(f);
        assertEquals((byte) 0x93, b[0]);
        assertEquals("NUMPY", new String(b, 1, 5, StandardCharsets.US_ASCII));
        assertEquals(1, b[6]);
        String h = header(b);
        assertEquals(0, (10 + h.length()) % 64, "data starts 64-byte aligned");
        assertTrue(h.startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }"), h);
        assertTrue(h.endsWith("\n"));
        ByteBuffer data = ByteBuffer.wrap(b, 10 + h.length(), 24).order(ByteOrder.LITTLE_ENDIAN);
        float[] expected = {1f, 4f, -2f, 5f, 3.5f, -0.25f};
        for (float e : expected) assertEquals(e, data.getFloat());
    }

    @Test
    void halfIsF2OneDimensionalShapesHaveATrailingComma(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("h.npy");
        NpyFiles.write(DenseTensor.of(DataType.HALF, new long[] {3}, 0.5f, -1f, 2f), f);
        byte[] b = Files.readAllBytes(f);
        String h = header(b);
        assertTrue(h.startsWith("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }"), h);
        ByteBuffer data = ByteBuffer.wrap(b, 10 + h.length(), 6).order(ByteOrder.LITTLE_ENDIAN);
        data.getShort();
        assertEquals(-1f, Float.float16ToFloat(data.getShort()), "the second value");
        assertEquals(10 + h.length() + 6, b.length);
        assertEquals("<f4", NpyFiles.descr(DataType.BFLOAT16), "NumPy has no bfloat16: its values fit float exactly");
    }
}
