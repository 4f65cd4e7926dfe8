package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.diff.Canonical;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.StructuralHash;
import org.hostir.studio.ir.parse.DumpFormatException;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deeply nested dumps (issue 31: 2,000 nested FORs overflowed the stack, exit 3): FOR and IF bodies nest
 * {@link HostIrDumpReader#MAX_NESTING} deep at most ({@code dump.limit}, at the line of the FOR that goes deeper),
 * expressions likewise (the statement is kept as text), and a program at the limit goes through every walker a
 * dump meets: the printer, the structural hash, the canonical renumbering and the comparison {@code diff} makes.
 */
class DeepDumpTest {
    private static final String HEADER = "%HostIrContainer { (T0_g_float[iS0{i0}]) -> (T0_g_float[iS0{i0}]) :";
    private static final String CLOSE = "} // %HostIrContainer\n";

    /** {@code depth} FORs, each indented under the one before, around one statement; one statement a line. */
    static String indented(int depth) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (int k = 0; k < depth; k++) {
            b.append("  ".repeat(k + 1)).append("FOR StreamIdx in iStreamIdx").append(k + 1).append("{i0}:\n");
        }
        return b.append("  ".repeat(depth + 1)).append("Synchronize Stream 0\n").append(CLOSE).toString();
    }

    /** {@code depth} FORs on one line (a dump that lost its line breaks): each nests in the one before. */
    static String oneLine(int depth) {
        StringBuilder b = new StringBuilder(HEADER).append(' ');
        for (int k = 0; k < depth; k++) b.append("FOR StreamIdx in iStreamIdx").append(k + 1).append("{i0}: ");
        return b.append("Synchronize Stream 0 ").append(CLOSE).toString();
    }

    private static int depthOf(List<HostNode> nodes) {
        int deepest = 0;
        for (HostNode n = nodes.getFirst(); n instanceof ForLoop f; n = f.body().getFirst()) deepest++;
        return deepest;
    }

    @Test
    void twoThousandNestedLoopsAreRefusedAtTheLineThatGoesTooDeep(@TempDir Path dir) throws IOException {
        LogProgram p = DumpLog.split(indented(2_000)).getFirst();
        assertFalse(p.readable());
        assertEquals(DumpFormatException.LIMIT, p.rule());
        int line = HostIrDumpReader.MAX_NESTING + 2;
        assertEquals(line, p.errorLine(), "line 1 is the header, FOR k on line k + 1");
        Path file = Files.writeString(dir.resolve("deep.log"), indented(2_000));
        CliRun r = CliRun.of("dump", file.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("error: " + file + ":" + line + ": #1: FOR and IF bodies nest 100 deep at most (nvFuser's Host IR"
                + " nests a few); this one opens level 101 [dump.limit]\n", r.err());
        CliRun diff = CliRun.of("diff", file.toString(), file.toString());
        assertEquals(2, diff.code(), diff.err());
        assertTrue(diff.err().startsWith("error: diff: " + file + ":" + line + ": program 1 cannot be read")
                && diff.err().contains("[dump.limit]"), diff.err());
    }

    @Test
    void aHundredThousandNestedLoopsAreRefusedQuickly() {
        long start = System.nanoTime();
        LogProgram p = DumpLog.split(oneLine(100_000)).getFirst();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertFalse(p.readable());
        assertEquals(DumpFormatException.LIMIT, p.rule());
        assertEquals(1, p.errorLine());
        assertTrue(seconds < 20, "read in " + seconds + " s (a mark per statement used to copy every spelling)");
    }

    @Test
    void programsAtTheLimitGoThroughEveryWalker(@TempDir Path dir) throws IOException {
        for (String text : List.of(indented(HostIrDumpReader.MAX_NESTING), oneLine(HostIrDumpReader.MAX_NESTING))) {
            ParsedDump d = HostIrDumpReader.read(text);
            HostIrContainer program = d.program();
            assertEquals(HostIrDumpReader.MAX_NESTING, depthOf(program.topLevel()));
            ParsedDump again = HostIrDumpReader.read(d.reprint());
            assertEquals(d.reprint(), again.reprint(), "the reprint reads back to itself");
            assertEquals(StructuralHash.of(program.topLevel()), StructuralHash.of(again.program().topLevel()));
            assertEquals(StructuralHash.withIds(Canonical.of(program)), StructuralHash.withIds(Canonical.of(
                    again.program())));
            assertTrue(Engine.compare(program, again.program(), "a", "b").equal());
        }
        Path file = Files.writeString(dir.resolve("limit.log"), indented(HostIrDumpReader.MAX_NESTING));
        CliRun same = CliRun.of("diff", file.toString(), file.toString());
        assertEquals(0, same.code(), same.out() + same.err());
        assertTrue(same.out().startsWith("structurally equal (" + (HostIrDumpReader.MAX_NESTING + 1) + " nodes"),
                same.out());
        CliRun dump = CliRun.of("dump", file.toString());
        assertEquals(0, dump.code(), dump.err());
    }

    /** Expressions nest too: 100,000 parentheses are a statement kept as text, not a StackOverflowError. */
    @Test
    void deeplyNestedExpressionsAreKeptAsText(@TempDir Path dir) throws IOException {
        String size = "(".repeat(100_000) + "i0" + " * i0 )".repeat(100_000);
        String text = HEADER.replace("T0_g_float[iS0{i0}])", "T1_g_float[iS1{i0}])") + "\n"
                + "  T1_g_float[iS1{i0}] = ALLOCATE(buffer=T1_g_float[iS1{i0}], mem_type=global, size=" + size
                + ", zero_init=false, resets_to_zero=false)\n" + CLOSE;
        ParsedDump d = HostIrDumpReader.read(text);
        assertEquals(1, d.opaqueNodes().size());
        assertTrue(d.warnings().getFirst().message().startsWith("kept as text (an expression nests 100 deep at most)")
                && d.warnings().getFirst().message().length() < 300, d.warnings().getFirst().message());
        Path file = Files.writeString(dir.resolve("parens.log"), text);
        CliRun r = CliRun.of("dump", file.toString(), "--report");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("warning: " + file + ":2: kept as text"), r.err());
    }
}
