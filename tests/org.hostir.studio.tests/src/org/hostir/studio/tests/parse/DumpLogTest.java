package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;

/**
 * A synthetic log built from seed dumps with noise between and around them: a gtest run with nvFuser's per-pass
 * logging, two ranks whose tagged lines interleave, an early-generation dump after a rank mention, and a broken
 * container that must not swallow the next one.
 */
class DumpLogTest {
    private static final String P2P = SeedDumps.dumps("000").get(0);
    private static final String AG_MATMUL = SeedDumps.dumps("000").get(1);
    private static final String EARLY = SeedDumps.dumps("002").get(0);

    private static String squeeze(String s) { return s.replaceAll("\\s+", ""); }

    /** The dump's lines, alternately tagged for rank 0 and rank 1 (both print the same program here). */
    private static String interleavedRanks(String dump) {
        StringBuilder out = new StringBuilder();
        for (String line : dump.lines().toList()) {
            out.append("[1,0]<stdout>:").append(line).append('\n');
            out.append("[1,1]<stdout>:").append(line).append('\n');
        }
        return out.toString();
    }

    static String log() {
        return String.join("\n",
                "Note: Google Test filter = *StreamParallelType*",
                "[ RUN      ] MultiDeviceStreamParallelTypeTest.AllgatherP2p",
                "I1124 12:00:01.123 some unrelated output { with braces }",
                "Fusion after pass: StreamParallelType",
                P2P,
                "========================================",
                "[       OK ] MultiDeviceStreamParallelTypeTest.AllgatherP2p (12 ms)",
                interleavedRanks(AG_MATMUL),
                "W1124 warning: something else",
                "%HostIrContainer { (T0_g_float[iS0{i0}] -> broken header",
                "on rank 3 the older build printed:",
                EARLY,
                "done");
    }

    @Test
    void splitsALogIntoItsLabelledPrograms() {
        String log = log();
        List<LogProgram> programs = DumpLog.split(log);
        assertEquals(5, programs.size(), () -> programs.stream().map(LogProgram::describe).toList().toString());

        LogProgram first = programs.get(0);
        assertEquals("StreamParallelType", first.pass());
        assertEquals("MultiDeviceStreamParallelTypeTest.AllgatherP2p", first.test());
        assertEquals(-1, first.rank());
        assertEquals(squeeze(P2P), squeeze(first.dump().reprint()));
        assertEquals(5, first.firstLine());

        for (int r = 0; r < 2; r++) {
            LogProgram tagged = programs.get(1 + r);
            assertEquals(r, tagged.rank(), tagged::describe);
            assertNull(tagged.pass(), "the pass label belongs to the untagged stream");
            assertEquals(squeeze(AG_MATMUL), squeeze(tagged.dump().reprint()));
        }
        assertEquals(programs.get(1).firstLine() + 1, programs.get(2).firstLine(), "rank 1's lines follow rank 0's");

        LogProgram broken = programs.get(3);
        assertFalse(broken.readable());
        int brokenLine = log.lines().toList().indexOf("%HostIrContainer { (T0_g_float[iS0{i0}] -> broken header") + 1;
        assertEquals(brokenLine, broken.firstLine());
        assertEquals(brokenLine, broken.errorLine(), broken.error());

        LogProgram early = programs.get(4);
        assertEquals(3, early.rank(), early::describe);
        assertEquals(NvFuserGeneration.EARLY_2025, early.dump().generation());
        assertEquals(squeeze(EARLY), squeeze(early.dump().reprint()));
        assertTrue(early.label().startsWith("#5 rank 3"), early.label());
    }

    @Test
    void aLogWithoutContainersHasNoPrograms() {
        assertEquals(List.of(), DumpLog.split("just\nsome output\n} // %HostIrContainer\n"));
    }
}
