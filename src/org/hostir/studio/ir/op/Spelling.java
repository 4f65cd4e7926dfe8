package org.hostir.studio.ir.op;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Small pieces the families' dump and export spellings share. */
final class Spelling {
    private Spelling() {}

    /** {@code 1, 2, 3}. */
    static String joined(List<?> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** The positions whose flag is set: squeeze's dims. */
    static List<Integer> flagged(List<Boolean> flags) {
        List<Integer> dims = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) if (flags.get(i)) dims.add(i);
        return dims;
    }

    /** {@code , flags = {true, false} )} as the dump prints broadcast's and squeeze's flags. */
    static String dumpFlags(List<Boolean> flags) {
        return ", flags = {" + joined(flags) + "} )\n";
    }

    /** A C++ list of {@code IrBuilder::create<Val>(4L)}, as the seeds write concrete extents. */
    static String cppVals(List<Long> shape) {
        return shape.stream().map(n -> "IrBuilder::create<Val>(" + n + "L)").collect(Collectors.joining(", "));
    }
}
