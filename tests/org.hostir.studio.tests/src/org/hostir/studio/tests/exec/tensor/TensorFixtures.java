package org.hostir.studio.tests.exec.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.TestPaths;

/** Small builders for TensorViews and tensors, and the example files. */
final class TensorFixtures {
    private TensorFixtures() {}

    static final DataType F = DataType.FLOAT;

    static IterDomain iter(IrBuilder b, long n) { return b.iter(new Extent.Constant(n)); }

    static IterDomain iter(IrBuilder b, String symbol) { return b.iter(b.symbol(symbol)); }

    static IterDomain did(IrBuilder b, String symbol) { return b.iter(b.symbol(symbol), ParallelType.DIDX); }

    static IterDomain red(IrBuilder b, long n) { return b.reduction(new Extent.Constant(n)); }

    static IterDomain red(IrBuilder b, String symbol) {
        return b.iterDomain(b.symbol(symbol), IterType.REDUCTION, ParallelType.SERIAL);
    }

    static IterDomain bcast(IrBuilder b) { return b.broadcast(); }

    static TensorView tv(IrBuilder b, IterDomain... axes) { return tv(b, F, null, axes); }

    static TensorView tv(IrBuilder b, DataType dtype, DeviceMesh mesh, IterDomain... axes) {
        return b.tensor(null, dtype, MemoryType.GLOBAL, mesh, List.of(axes));
    }

    static long[] shape(long... s) { return s; }

    /** A float tensor holding 0, 1, 2, .. in row-major order. */
    static DenseTensor iota(long... shape) {
        DenseTensor t = DenseTensor.zeros(shape, F);
        float[] v = new float[(int) t.numel()];
        for (int i = 0; i < v.length; i++) v[i] = i;
        return DenseTensor.of(F, shape, v);
    }

    static void assertValues(DenseTensor t, long[] shape, float... expected) {
        assertArrayEquals(shape, t.shape(), "shape");
        float[] actual = t.toArray();
        assertEquals(expected.length, actual.length, "numel");
        for (int i = 0; i < expected.length; i++) assertEquals(expected[i], actual[i], 1e-5, "element " + i);
    }

    static List<Path> exampleFiles() {
        Path root = RepoPaths.repo().resolve("examples");
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".fusion"))
                    .filter(p -> !TestPaths.refusedOnPurpose(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
