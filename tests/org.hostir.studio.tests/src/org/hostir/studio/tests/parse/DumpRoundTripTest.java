package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.parse.DumpFormatException;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Host IR dump in the seeds parses, and printing the parsed tree in the dump's generation gives the dump
 * back with only whitespace removed (no renumbering: ids are read, not invented).
 */
class DumpRoundTripTest {
    private static final List<String> SEEDS = List.of("000", "001", "002", "003", "004");

    private static String squeeze(String s) { return s.replaceAll("\\s+", ""); }

    static List<String> allSeedDumps() {
        List<String> out = new ArrayList<>();
        for (String seed : SEEDS) out.addAll(SeedDumps.dumps(seed));
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everySeedDumpRoundTrips() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String seed : SEEDS) {
            List<String> dumps = SeedDumps.dumps(seed);
            for (int i = 0; i < dumps.size(); i++) {
                String dump = dumps.get(i);
                tests.add(DynamicTest.dynamicTest("seed " + seed + " dump " + i, () -> {
                    ParsedDump parsed = HostIrDumpReader.read(dump);
                    String printed = parsed.reprint();
                    assertEquals(squeeze(dump), squeeze(printed),
                            () -> "--- printed ---\n" + printed + "--- dump ---\n" + dump + "\nwarnings "
                                    + parsed.warnings());
                }));
            }
        }
        assertTrue(tests.size() >= 20, "the seeds hold at least 20 dumps, found " + tests.size());
        return tests.stream();
    }

    /** Seed 002 is the early 2025 generation: select, i105, iStream7, no backend=; it prints back so. */
    @Test
    void seed002IsReadAsTheEarlyGeneration() {
        ParsedDump parsed = HostIrDumpReader.read(SeedDumps.dumps("002").get(0));
        assertEquals(NvFuserGeneration.EARLY_2025, parsed.generation());
        ForLoop loop = (ForLoop) parsed.program().topLevel().stream().filter(ForLoop.class::isInstance)
                .findFirst().orElseThrow();
        assertEquals("i105", loop.index().name());
        assertTrue(loop.body().stream().anyMatch(HirAliasSelect.class::isInstance));
        assertTrue(parsed.reprint().contains("= select( "));
        assertFalse(parsed.reprint().contains("backend="));
        // the same tree in the current spelling is the current generation's text
        String current = HostIrPrinter.print(parsed.program());
        assertTrue(current.contains("HirAliasSelect") && current.contains("iStreamIdx7{i0}")
                && current.contains("backend=NCCL"), current);
    }

    /** The current generation, nested by indentation where the seed kept its layout. */
    @Test
    void seed000IsNestedByIndentation() {
        ParsedDump parsed = HostIrDumpReader.read(SeedDumps.dumps("000").get(0));
        assertEquals(NvFuserGeneration.V2025_06, parsed.generation());
        assertTrue(parsed.layoutKept());
        assertEquals(List.of("Allocate", "GetCurrentStream", "ForLoop", "ForLoop"), kinds(parsed.program().topLevel()));
        ForLoop main = (ForLoop) parsed.program().topLevel().get(3);
        assertEquals(List.of("SetCurrentStream", "HirAliasSelect", "IfThenElse", "SetCurrentStream", "Synchronize"),
                kinds(main.body()));
        assertEquals(List.of(), parsed.warnings());
    }

    /** Seed 001 lost its line breaks: the same nesting is inferred, with a warning that it was. */
    @Test
    void seed001NestingIsInferred() {
        ParsedDump parsed = HostIrDumpReader.read(
                SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.Allgather "));
        assertFalse(parsed.layoutKept());
        assertEquals(List.of("Allocate", "GetCurrentStream", "ForLoop", "ForLoop"), kinds(parsed.program().topLevel()));
        assertEquals(2, ((ForLoop) parsed.program().topLevel().get(2)).body().size());
        assertEquals(8, ((ForLoop) parsed.program().topLevel().get(3)).body().size());
        assertEquals(1, parsed.warnings().size(), parsed.warnings()::toString);
    }

    /** Seed 003's AliasTest dump has a {@code view} and an {@code rf} axis: kept as text, with warnings. */
    @Test
    void unknownStatementsAreKeptAsText() {
        ParsedDump parsed = HostIrDumpReader.read(SeedDumps.dumpContaining("003", "= view("));
        List<OpaqueNode> opaque = parsed.opaqueNodes();
        // the view is unknown; the Set.Permute after it reads since the reader knows the "rf" suffix (iS8{12}rf)
        assertEquals(1, opaque.size(), parsed.reprint());
        assertTrue(opaque.get(0).headline().contains("= view("));
        assertEquals(1, parsed.warnings().size());
        assertTrue(parsed.warnings().get(0).message().contains("kept as text"));
    }

    /** A field a newer nvFuser might add keeps its statement as text; the rest of the dump is read as usual. */
    @Test
    void anUnknownFieldKeepsItsStatementAsText() {
        String dump = SeedDumps.dumps("000").get(0);
        String newer = dump.replace("P2PCommunication 30 (type=recv,", "P2PCommunication 30 (type=recv, tag=7,");
        ParsedDump parsed = HostIrDumpReader.read(newer);
        assertEquals(1, parsed.opaqueNodes().size());
        assertTrue(parsed.opaqueNodes().get(0).headline().contains("tag=7"));
        assertEquals(1, parsed.warnings().size());
        assertEquals(squeeze(newer), squeeze(parsed.reprint()));
        ParsedDump original = HostIrDumpReader.read(dump);
        assertEquals(original.program().allNodes().size(), parsed.program().allNodes().size(),
                "the unknown statement replaces exactly one node");
    }

    @Test
    void anUnclosedContainerAtTheEndIsReadToTheEndWithAWarningOnItsLine() {
        String closed = SeedDumps.dumps("000").get(0);
        String dump = "noise\n" + closed.replace("} // %HostIrContainer", "");
        ParsedDump read = HostIrDumpReader.read(dump);
        assertEquals(HostIrDumpReader.read(closed).program().allNodes().size(), read.program().allNodes().size(),
                "a cut-off dump keeps every statement it holds");
        assertTrue(read.warnings().stream().anyMatch(w -> w.line() == 2 && w.message().contains("never closed")),
                read.warnings().toString());
    }

    @Test
    void anUnclosedContainerBeforeAnotherIsAnErrorWithItsLine() {
        String one = SeedDumps.dumps("000").get(0);
        String dump = "noise\n" + one.replace("} // %HostIrContainer", "") + "\n" + one;
        var e = assertThrows(DumpFormatException.class, () -> HostIrDumpReader.read(dump));
        assertEquals(2, HostIrDumpReader.lineOf(dump, e.offset()));
        assertTrue(e.getMessage().contains("not closed"), e.getMessage());
    }

    static List<String> kinds(List<HostNode> nodes) {
        return nodes.stream().map(n -> n.getClass().getSimpleName()).toList();
    }
}
