package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.TensorSummary;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.export.ExportInjectionTest;
import org.junit.jupiter.api.Test;

/**
 * The debugger's line for a tensor ({@code hirstudio debug} prints it, the Variables view shows it) with a hostile
 * name (a fusion built in memory: a file's names are identifiers): one line, no raw control character, the name
 * quoted and shortened, the values after it. The name went in raw, so a newline split the stop's listing.
 */
class StopTextHostileNamesTest {
    private static final List<IterDomain> AXES = List.of(new IterDomain(0, new Extent.Constant(2), IterType.ITERATION,
            ParallelType.SERIAL));

    @Test
    void aTensorsLineStaysOneShortLineWhateverItsName() {
        TensorView plain = new TensorView(3, "out", DataType.FLOAT, MemoryType.GLOBAL,
                AXES, null);
        DenseTensor values = DenseTensor.ofDoubles(DataType.FLOAT, new long[] {2}, 1.5, -2);
        int plainLength = StopText.tensor(TensorSummary.of(plain, "out", values, "rank 0 (cpu)", Optional.empty(),
                true)).length();
        for (String name : ExportInjectionTest.hostileTexts()) {
            TensorView tv = new TensorView(3, name, DataType.FLOAT, MemoryType.GLOBAL, AXES, null);
            String line = StopText.tensor(TensorSummary.of(tv, name, values, "rank 0 (cpu)", Optional.empty(), true));
            String shown = TerminalText.escape(line);
            assertTrue(line.codePoints().noneMatch(TerminalText::isUnsafe), shown);
            assertTrue(line.startsWith("T3 '") && line.contains("' float [2]") && line.endsWith("first [1.5 -2]"),
                    shown);
            assertTrue(line.length() < plainLength + 300, "a long name is shortened: " + line.length());
        }
    }
}
