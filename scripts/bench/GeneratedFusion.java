package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ParallelType;

/** EditorBenchmarkTest.generated for the probes (the test bundle is not on their classpath): the same fusion. */
final class GeneratedFusion {
    private GeneratedFusion() {}

    /** A chain of {@code ops} add/mul ops over 3-axis tensors, tv0 and tv1 read by every other op. */
    static FusionDocument of(int ops) {
        List<TensorSpec> tensors = new ArrayList<>();
        List<OpSpec> list = new ArrayList<>();
        List<AxisSpec> axes = List.of(AxisSpec.of(ExtentSpec.symbol("D"), ParallelType.DIDX),
                AxisSpec.of(ExtentSpec.symbol("M")), AxisSpec.of(ExtentSpec.symbol("N")));
        tensors.add(new TensorSpec("tv0", DataType.FLOAT, null, axes, MeshSpec.ALL));
        tensors.add(new TensorSpec("tv1", DataType.FLOAT, null, axes, MeshSpec.ALL));
        for (int i = 0; i < ops; i++) {
            String out = "tv" + (i + 2);
            tensors.add(new TensorSpec(out, DataType.FLOAT, null, axes, MeshSpec.ALL));
            String prev = "tv" + (i + 1);
            list.add(i % 2 == 0 ? OpSpec.of(OpKind.ADD, out, prev, "tv0") : OpSpec.of(OpKind.MUL, out, prev, "tv1"));
        }
        return new FusionDocument("generated" + ops, null, Map.of("M", 8L, "N", 8L), tensors, list,
                List.of("tv0", "tv1"), List.of("tv" + (ops + 1)), null);
    }
}
