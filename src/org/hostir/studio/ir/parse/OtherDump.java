package org.hostir.studio.ir.parse;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The other output a log interleaves with Host IR programs, by the lines nvFuser's printers open and close their
 * dumps with (81c4b22fd), for {@link DumpLog#skipped}: each kind is named by what prints it.
 */
enum OtherDump {
    /** Fusion::print (NVFUSER_DUMP=fusion_ir), csrc/fusion.cpp:522-540. */
    FUSION_IR("fusion_ir", "Inputs:", "} // %kernel"),
    /** Fusion::printMath (fusion_ir_math, fusion_ir_presched), csrc/fusion.cpp:659-663. */
    FUSION_MATH("fusion_ir_math", "%kernel_math {", "} // %kernel_math"),
    /** SegmentedFusion's operator<< (segmented_fusion), csrc/fusion_segmenter.cpp:1394-1408. */
    SEGMENTS("segmented_fusion", "Segmented_Fusion Dump: -- fusion segments:", "} //Segmented_Fusion"),
    /** SegmentedFusion::print's complete fusion, csrc/fusion_segmenter.cpp:1413-1416. */
    COMPLETE_FUSION("segmented_fusion", "Segmented_Fusion Dump: -- Re-written complete fusion:{",
            "} // {Re-written complete fusion}");

    static final String PYTHON_WARNINGS = "Python warnings";
    static final String TEST_RUNNER = "test runner";
    static final String OTHER = "other";
    private static final Pattern PYTHON_WARNING = Pattern.compile("^(?:\\S+\\.py:\\d+: )?\\w*Warning: ");
    private static final Pattern GTEST = Pattern.compile("^\\[ *(?:RUN|OK|FAILED|PASSED|SKIPPED|=+|-+) *\\]");
    private static final List<OtherDump> ALL = List.of(values());

    private final String option;
    private final String open;
    private final String close;

    OtherDump(String option, String open, String close) {
        this.option = option;
        this.open = open;
        this.close = close;
    }

    /** The kind of dump {@code line} opens (its NVFUSER_DUMP option), or null. */
    static String opening(String line) {
        return ALL.stream().filter(d -> line.startsWith(d.open)).findFirst().map(d -> d.option).orElse(null);
    }

    /** Whether {@code line} closes a dump of kind {@code option}. */
    static boolean closes(String option, String line) {
        return ALL.stream().anyMatch(d -> d.option.equals(option) && line.startsWith(d.close));
    }

    /** A line outside any dump: a Python warning, a test runner's, or other. */
    static String kindOf(String line) {
        if (PYTHON_WARNING.matcher(line).find()) return PYTHON_WARNINGS;
        return GTEST.matcher(line).find() ? TEST_RUNNER : OTHER;
    }
}
