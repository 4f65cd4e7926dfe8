package org.hostir.studio.tests.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: an unindexed stream prints at 2026-04 as nvFuser's address (hir::Stream::toString, csrc/host_ir/ir.cpp:
 * 193-205 at 81c4b22fd), a stable one; addresses compare as names; a dump's index definitions (#5327) are put in
 * place of the indices before a comparison.
 */
class StreamNamesAndIndexDefinitionsTest {
    private static String lowered(String generation) {
        String file = TestPaths.repo("examples", "conformance", "stream_single_set_op.fusion").toString();
        CliRun r = CliRun.of("lower", file, "--nvfuser", generation);
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    private static boolean equal(HostIrContainer a, HostIrContainer b) {
        return ProgramComparison.compare(a, b, "a", "b").equal();
    }

    @Test
    void theUnindexedStreamPrintsAsAStableAddressAt2026AndAsANumberAt2025() {
        String newest = lowered("2026-04");
        assertTrue(newest.contains("  Stream 0x7e000000 = GetCurrentStream()\n"), newest);
        assertTrue(newest.contains("    Synchronize(Stream 0x7e000000)\n"), newest);
        assertTrue(newest.contains("    SetCurrentStream(Stream 0x7e000000)\n"), newest);
        assertFalse(newest.contains("Stream 0)") || newest.contains("Stream 0 "), newest);
        assertEquals(newest, lowered("2026-04"), "deterministic");
        assertTrue(lowered("2025-06").contains("  GetCurrentStream into Stream 0\n"), "the seeds' spelling unchanged");
    }

    @Test
    void thePrintedAddressReadsBackAndPrintsTheSame() {
        String newest = lowered("2026-04");
        ParsedDump d = HostIrDumpReader.read(newest);
        assertEquals(List.of(), d.warnings());
        assertEquals(newest, d.reprint());
    }

    @Test
    void addressesCompareAsNamesButWhichStreamANodeUsesStillCounts() {
        String newest = lowered("2026-04");
        HostIrContainer ours = HostIrDumpReader.read(newest).program();
        HostIrContainer real = HostIrDumpReader.read(newest.replace("0x7e000000", "0x174e5c80")).program();
        assertTrue(equal(ours, real), "another address for the same stream is the same program");
        // one Synchronize waits for another stream than the one GetCurrentStream captured: a real difference
        String other = newest.replaceFirst("Synchronize\\(Stream 0x7e000000\\)", "Synchronize(Stream 0x174e5c80)");
        assertFalse(equal(ours, HostIrDumpReader.read(other).program()), other);
    }

    private static final String DUMP_5327 = "examples/dumps/nvfuser-indices/p2p_allgather_5327.log";

    /** The dump of #5327 with its indices written inline, as the Studio prints them, and no definitions block. */
    private static String inlined(String text) {
        return text.substring(0, text.indexOf("\nIndex definitions:") + 1)
                .replace("index = i84", "index = ( ( rank + streamIdx ) % 8 )")
                .replace("peer=i84", "peer=( ( rank + streamIdx ) % 8 )")
                .replace("peer=i90", "peer=( ( 8 + ( rank - streamIdx ) ) % 8 )");
    }

    @Test
    void aDumpWithIndexDefinitionsComparesWithTheSameProgramPrintedInline() throws Exception {
        String text = Files.readString(TestPaths.repo(DUMP_5327));
        ParsedDump withDefinitions = HostIrDumpReader.read(text);
        HostIrContainer inline = HostIrDumpReader.read(inlined(text)).program();
        assertTrue(equal(Engine.comparable(withDefinitions), inline), "definitions substituted");
        assertFalse(equal(withDefinitions.program(), inline), "without them i84 is only a name");
        ParsedDump wrong = HostIrDumpReader.read(text.replace("i84 = i82 % 8;", "i84 = i82 % 4;"));
        assertFalse(equal(Engine.comparable(wrong), inline), "a different definition is a difference");
    }

    @Test
    void theDiffCommandSubstitutesTheDefinitions(@TempDir Path dir) throws Exception {
        String text = Files.readString(TestPaths.repo(DUMP_5327));
        Path a = dir.resolve("a.log");
        Path b = dir.resolve("b.log");
        Files.writeString(a, text);
        Files.writeString(b, inlined(text));
        CliRun r = CliRun.of("diff", a.toString(), b.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("structurally equal"), r.out());
    }

    @Test
    void aCycleOfDefinitionsStopsAtItsName() throws Exception {
        String text = Files.readString(TestPaths.repo(DUMP_5327));
        String cyclic = text.substring(0, text.indexOf("\nIndex definitions:") + 1)
                + "\nIndex definitions:\n  i84 = i90 + 1;\n  i90 = i84 + 1;\n\n";
        ParsedDump d = HostIrDumpReader.read(cyclic);
        assertEquals(2, d.indices().size());
        HostIrContainer c = Engine.comparable(d);
        assertTrue(c.allNodes().size() == d.program().allNodes().size(), "read whole, no endless substitution");
        assertFalse(equal(c, HostIrDumpReader.read(inlined(text)).program()));
    }
}
