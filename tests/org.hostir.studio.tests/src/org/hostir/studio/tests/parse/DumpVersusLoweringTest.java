package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.diff.DiffNode;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real nvFuser dump (the seeds') against the Studio's lowering of the seed's example, through the engine service
 * and {@code hirstudio diff}: numbering (node ids, tensors, iter domains, symbols) is no difference; a changed
 * option is.
 */
class DumpVersusLoweringTest {

    static HostIrContainer lowered(String example, int devices, LoweringOptions options) throws Exception {
        Path file = RepoPaths.repo().resolve(Path.of("examples", "seeds", example + ".fusion"));
        var loaded = Engine.load(new FusionSource.File(file), devices, Map.of());
        return Engine.lowerRank(loaded, options, 0);
    }

    private static ProgramComparison compare(String dump, String example, int devices, LoweringOptions options)
            throws Exception {
        return Engine.compare(HostIrDumpReader.read(dump).program(), lowered(example, devices, options), "dump",
                example);
    }

    private static String seed001(String test) {
        return SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest." + test + " ");
    }

    @Test
    void everyCurrentGenerationSeedDumpEqualsTheStudiosLowering() throws Exception {
        record Case(String dump, String example, int devices) {}
        List<Case> cases = List.of(new Case(SeedDumps.dumps("000").get(0), "allgather_p2p", 8),
                new Case(SeedDumps.dumps("000").get(1), "ag_matmul_p2p", 8),
                new Case(seed001("Allgather"), "allgather", 8), new Case(seed001("Allreduce"), "allreduce", 8),
                new Case(seed001("ReduceScatter"), "reduce_scatter", 8), new Case(seed001("AG_matmul"), "ag_matmul", 8),
                new Case(seed001("matmul_AR"), "matmul_ar", 8),
                new Case(SeedDumps.dumpContaining("003", "type=Scatter"), "scatter_two_stages", 4));
        for (Case c : cases) {
            ProgramComparison cmp = compare(c.dump(), c.example(), c.devices(), SeedGeneration.DEFAULTS);
            assertTrue(cmp.equal(), () -> c.example() + " differs:\n" + cmp.textDiff());
        }
    }

    /**
     * The known differences are reported, and nothing else: seed 001's broadcast flags (SeedFidelityTest explains
     * them) are the one changed line; seed 003's older single-set dump has GetCurrentStream inside the loop.
     */
    @Test
    void knownDifferencesAreReportedExactly() throws Exception {
        ProgramComparison bcast = compare(seed001("matmul_RS_through_bcast"), "matmul_rs_through_bcast", 8,
                SeedGeneration.DEFAULTS);
        assertFalse(bcast.equal());
        List<String> changed = bcast.textDiff().lines().filter(l -> l.startsWith("-") || l.startsWith("+"))
                .filter(l -> !l.startsWith("---") && !l.startsWith("+++")).toList();
        assertEquals(2, changed.size(), bcast.textDiff());
        assertTrue(changed.get(0).contains("flags = {true, false, true, false, false}")
                && changed.get(1).contains("flags = {false, true, true, false, false}"), bcast.textDiff());

        ProgramComparison older = compare(SeedDumps.dumpContaining("003", "T1_g_float[iStreamIdx2{i0}, iS3{i2}] ="),
                "single_set", 1, SeedGeneration.DEFAULTS);
        assertFalse(older.equal());
        assertTrue(older.textDiff().contains("\n-    GetCurrentStream into Stream 0\n")
                && older.textDiff().contains("\n+  GetCurrentStream into Stream 0\n"), older.textDiff());
    }

    /** The numbering really differs (else the test above proves nothing about matching by structure). */
    @Test
    void theNumberingsDifferBeforeCanonicalisation() throws Exception {
        HostIrContainer dump = HostIrDumpReader.read(SeedDumps.dumps("000").get(1)).program();
        HostIrContainer studio = lowered("ag_matmul_p2p", 8, SeedGeneration.DEFAULTS);
        List<Integer> dumpIds = dump.allNodes().stream().filter(P2PCommunication.class::isInstance).map(HostNode::id)
                .toList();
        List<Integer> studioIds = studio.allNodes().stream().filter(P2PCommunication.class::isInstance)
                .map(HostNode::id).toList();
        assertFalse(dumpIds.equals(studioIds), dumpIds + " vs " + studioIds);
        ProgramComparison cmp = Engine.compare(dump, studio, "dump", "studio");
        assertTrue(cmp.equal());
        assertEquals("", cmp.symbolNote(), "the file's symbols are numbered per input axis as nvFuser's, so none merge");
    }

    /** The collective allgather instead of P2P: the P2P exchange goes, an Allgather comes. */
    @Test
    void aChangedOptionShowsTheExpectedDifference() throws Exception {
        LoweringOptions collective = SeedGeneration.options(Map.of("allgather", "collective"));
        ProgramComparison cmp = compare(SeedDumps.dumps("000").get(1), "ag_matmul_p2p", 8, collective);
        assertFalse(cmp.equal());
        List<DiffNode> all = flatten(cmp.tree().nodes());
        assertTrue(all.stream().anyMatch(n -> n.kind() == DiffKind.ADDED && n.after() instanceof Communication c
                && c.type().dumpName().equals("Allgather")), cmp.textDiff());
        assertEquals(2, all.stream().filter(n -> n.kind() == DiffKind.REMOVED
                && n.before() instanceof P2PCommunication).count(), cmp.textDiff());
        assertTrue(cmp.textDiff().contains("+  Communication 0 (type=Allgather"), cmp.textDiff());
    }

    private static List<DiffNode> flatten(List<DiffNode> nodes) {
        List<DiffNode> out = new ArrayList<>();
        for (DiffNode n : nodes) {
            out.add(n);
            out.addAll(flatten(n.children()));
        }
        return out;
    }

    /** A symbol that pairs crosswise (neither side only merges) is a difference, not a binding. */
    @Test
    void crosswiseSymbolsAreADifference() throws Exception {
        String dump = SeedDumps.dumps("000").get(0);
        String swapped = dump.replace("iS4{i2}", "iS4{i0}");
        ProgramComparison cmp = Engine.compare(HostIrDumpReader.read(dump).program(),
                HostIrDumpReader.read(swapped).program(), "a", "b");
        assertFalse(cmp.equal(), "an extent bound to the other symbol is a real change");
    }

    @Test
    void theCommandLineDiffsADumpAgainstAFusion(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("agmm.log");
        Files.writeString(dump, "some output\n" + SeedDumps.dumps("000").get(1) + "\nmore output\n");
        String fusion = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion").toString();
        CliRun same = CliRun.of("diff", dump.toString(), fusion);
        assertEquals(0, same.code(), same.out() + same.err());
        assertTrue(same.out().startsWith("structurally equal"), same.out());
        CliRun changed = CliRun.of("diff", dump.toString(), fusion, "--option", "allgather=collective");
        assertEquals(1, changed.code(), changed.out() + changed.err());
        assertTrue(changed.out().contains("type=Allgather"), changed.out());
        CliRun none = CliRun.of("diff", fusion, dir.resolve("missing.txt").toString());
        assertEquals(2, none.code());
        assertTrue(none.err().startsWith("error: ") && none.err().contains("[dump.read]"), none.err());
    }

    @Test
    void theCommandLineReportsAndReprintsADump(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.log");
        Files.writeString(log, DumpLogTest.log());
        CliRun r = CliRun.of("dump", log.toString());
        assertEquals(2, r.code(), "one container of the log is broken: " + r.err());
        assertTrue(r.out().contains("5 programs"), r.out());
        assertTrue(r.out().contains("#2 rank 0"), r.out());
        assertTrue(r.err().contains("[dump.syntax]"), r.err());
        CliRun one = CliRun.of("dump", log.toString(), "--program", "5");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("= select( "), one.out());
    }
}
