package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Random;

import org.hostir.studio.ir.parse.DumpFormatException;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;

/**
 * Damaged dumps (cut short, characters deleted, duplicated or swapped, lines shuffled) never crash the reader: each
 * is read (with opaque nodes and warnings) or refused with a {@link DumpFormatException}, and whatever is read
 * prints. A crash here would be exit 3 ("a bug in hirstudio") for what is bad input.
 */
class DumpFuzzTest {

    static String damage(String dump, Random r) {
        StringBuilder s = new StringBuilder(dump);
        int edits = 1 + r.nextInt(4);
        for (int k = 0; k < edits && s.length() > 2; k++) {
            int at = r.nextInt(s.length());
            switch (r.nextInt(5)) {
                case 0 -> s.setLength(at);
                case 1 -> s.deleteCharAt(at);
                case 2 -> s.insert(at, s.charAt(r.nextInt(s.length())));
                case 3 -> s.insert(at, "(){}[],=:%0123456789 \n".charAt(r.nextInt(22)));
                default -> {
                    int to = Math.min(s.length(), at + 1 + r.nextInt(40));
                    String piece = s.substring(at, to);
                    s.delete(at, to);
                    s.insert(r.nextInt(s.length() + 1), piece);
                }
            }
        }
        return s.toString();
    }

    /** Damage the IR's own checks catch (a rooted collective without its root) is a statement kept as text. */
    @Test
    void whatTheIrRefusesIsKeptAsText() {
        String scatter = SeedDumps.dumpContaining("003", "type=Scatter");
        ParsedDump d = HostIrDumpReader.read(scatter.replace("root=0, ", ""));
        assertTrue(d.opaqueNodes().size() == 1 && d.opaqueNodes().get(0).reason().contains("root"),
                d.opaqueNodes()::toString);
    }

    /**
     * Containers cut off at the very end of a log: one cut inside its header is refused on its own; one cut after
     * its header is read to the end with a warning, its last, cut statement kept as text.
     */
    @Test
    void logsEndingInsideAContainerAreRefusedOrReadPerContainer() {
        for (String tail : List.of("%HostIrContainer {", "%HostIrContainer { (", "%HostIrContainer { (T0_g_float[")) {
            List<LogProgram> programs = DumpLog.split("noise\n" + tail);
            assertTrue(programs.size() == 1 && !programs.get(0).readable(), programs::toString);
        }
        List<LogProgram> programs = DumpLog.split("noise\n%HostIrContainer { () -> () :\n  FOR");
        assertTrue(programs.size() == 1 && programs.get(0).readable(), programs::toString);
        ParsedDump cut = programs.get(0).dump();
        assertTrue(cut.warnings().get(0).line() == 2 && cut.warnings().get(0).message().contains("never closed"),
                cut.warnings()::toString);
        assertEquals(1, cut.opaqueNodes().size(), cut.opaqueNodes()::toString);
    }

    @Test
    void damagedDumpsAreReadOrRefusedNeverCrash() {
        List<String> dumps = DumpRoundTripTest.allSeedDumps();
        Random r = new Random(20);
        int read = 0;
        int refused = 0;
        for (int round = 0; round < 3000; round++) {
            String damaged = damage(dumps.get(r.nextInt(dumps.size())), r);
            try {
                ParsedDump d = HostIrDumpReader.read(damaged);
                assertTrue(d.reprint().startsWith("%HostIrContainer"));
                read++;
            } catch (DumpFormatException e) {
                refused++;
            } catch (RuntimeException e) {
                fail("round " + round + ": " + e + "\n" + damaged, e);
            }
            try {
                for (LogProgram p : DumpLog.split("noise\n" + damaged + "\nmore noise")) {
                    if (p.readable()) p.dump().reprint();
                }
            } catch (RuntimeException e) {
                fail("log round " + round + ": " + e + "\n" + damaged, e);
            }
        }
        assertTrue(read > 300 && refused > 300, "read " + read + ", refused " + refused);
    }
}
