package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The corpora of dumps nvFuser main quotes, each file cited in its folder's SOURCES.md: examples/dumps/nvfuser-2026-04
 * (today's dialect: read with no warning, nothing kept as text, detected as 2026-04) and examples/dumps/nvfuser-tutorial
 * (the multi-device tutorial's pre-#2889 spelling: read leniently, detected as 2024-08). Every container prints back
 * equal modulo whitespace, through the reader and through {@code ./hirstudio dump}.
 */
class DumpCorpusTest {
    private static final Path CORPUS = RepoPaths.repo().resolve("examples/dumps/nvfuser-2026-04");
    private static final Path TUTORIAL = RepoPaths.repo().resolve("examples/dumps/nvfuser-tutorial");

    private static List<Path> dumps() throws IOException { return dumps(CORPUS); }

    private static List<Path> dumps(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    /**
     * Blanks and line breaks collapsed, and dropped next to the punctuation nvFuser pads inconsistently; every
     * other character compared.
     */
    static String modWhitespace(String s) {
        return s.strip().replaceAll("\\s+", " ").replaceAll(" ?([\\[\\](){},=]) ?", "$1");
    }

    @Test
    void theCorpusHoldsEveryQuotedDump() throws IOException {
        assertEquals(3, dumps().size(), "SOURCES.md lists three dumps");
    }

    @Test
    void eachDumpReadsAsNvFuser2026AndPrintsBackEqualModuloWhitespace() throws IOException {
        for (Path p : dumps()) {
            String text = Files.readString(p);
            ParsedDump d = HostIrDumpReader.read(text);
            assertEquals(List.of(), d.warnings(), p.toString());
            assertEquals(List.of(), d.opaqueNodes(), p.toString());
            assertEquals(NvFuserGeneration.V2026_04, d.generation(), p.toString());
            assertEquals(modWhitespace(text), modWhitespace(d.reprint()), p.toString());
        }
    }

    @Test
    void theCommandLinePrintsEachBack() throws IOException {
        for (Path p : dumps()) {
            CliRun r = CliRun.of("dump", p.toString());
            assertEquals(0, r.code(), r.err());
            assertEquals("", r.err());
            assertEquals(modWhitespace(containers(Files.readString(p))), modWhitespace(programs(r.out())), p.toString());
            assertTrue(r.out().contains("generation 2026-04"), r.out());
        }
    }

    /** The command's output without its {@code //} report lines. */
    private static String programs(String out) {
        return out.lines().filter(l -> !l.startsWith("//")).reduce("", (a, b) -> a + b + "\n");
    }

    /** The containers of a log, the text around them ({@code Device ID = 0}) left out. */
    private static String containers(String log) {
        List<String> lines = log.lines().toList();
        StringBuilder out = new StringBuilder();
        for (LogProgram p : DumpLog.split(log)) {
            out.append(String.join("\n", lines.subList(p.firstLine() - 1, p.lastLine()))).append('\n');
        }
        return out.toString();
    }

    @Test
    void theTutorialsDumpsReadLenientlyAndPrintBack() throws IOException {
        List<Path> files = dumps(TUTORIAL);
        assertEquals(8, files.size(), "SOURCES.md lists eight dumps");
        int opaque = 0;
        for (Path p : files) {
            String log = Files.readString(p);
            List<LogProgram> programs = DumpLog.split(log);
            StringBuilder reprinted = new StringBuilder();
            for (LogProgram lp : programs) {
                assertTrue(lp.readable(), p + ": " + lp.describe());
                assertEquals(NvFuserGeneration.EARLY_2024, lp.dump().generation(), p + ": " + lp.dump().warnings());
                assertTrue(lp.dump().warnings().stream().anyMatch(w -> w.message().contains("no dtypes")), p.toString());
                opaque += lp.dump().opaqueNodes().size();
                reprinted.append(lp.dump().reprint());
            }
            assertEquals(modWhitespace(containers(log)), modWhitespace(reprinted.toString()), p.toString());
            CliRun r = CliRun.of("dump", p.toString());
            assertEquals(0, r.code(), r.err());
            assertEquals(modWhitespace(containers(log)), modWhitespace(programs(r.out())), p.toString());
        }
        // kept as text: the Communications spelling Input=/Output= (5) and the elided "HostUnitN: [...]" (6)
        assertEquals(11, opaque);
    }

    /**
     * examples/dumps/nvfuser-2025-12 (test_overlap.py at fbf3dfd67, #5547): main's loop and ShardByStream with the
     * word-syntax wait #5746 replaced. Read whole, with a warning naming the mix; printed in 2026-04's spelling, so
     * it comes back equal modulo whitespace but for that one spelling.
     */
    @Test
    void theTransitionalDumpReadsWholeAndPrintsInOneGeneration() throws IOException {
        Path p = RepoPaths.repo().resolve("examples/dumps/nvfuser-2025-12/row_parallel_linear_forward_5547.log");
        String text = Files.readString(p);
        ParsedDump d = HostIrDumpReader.read(text);
        assertEquals(List.of(), d.opaqueNodes());
        assertEquals(NvFuserGeneration.V2026_04, d.generation());
        assertEquals(1, d.warnings().size(), d.warnings().toString());
        assertTrue(d.warnings().getFirst().message().contains("with others [Wait Communication]"), d.warnings()::toString);
        assertEquals(modWhitespace(text.replace("Wait Communication 250", "Wait(Communication 250)")),
                modWhitespace(d.reprint()));
        assertTrue(!modWhitespace(text).equals(modWhitespace(d.reprint())), "the one spelling does differ");
        ForLoop loop = (ForLoop) d.program().topLevel().get(1);
        assertEquals(5, loop.body().size(), "ShardByStream, linear, ShardByStream, Allreduce, Wait");
        CliRun r = CliRun.of("dump", p.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("mixes spellings"), r.err());
    }

    /** examples/dumps/nvfuser-fragments: the quoted first lines of a program, closed as nvFuser closes one. */
    @Test
    void eachFragmentReadsAsTheStartOfAProgram() throws IOException {
        List<Path> files = dumps(RepoPaths.repo().resolve("examples/dumps/nvfuser-fragments"));
        assertEquals(1, files.size(), "SOURCES.md lists one fragment");
        for (Path p : files) {
            String text = Files.readString(p).stripTrailing() + "\n} // %HostIrContainer\n";
            ParsedDump d = HostIrDumpReader.read(text);
            assertEquals(List.of(), d.opaqueNodes(), p.toString());
            assertEquals(modWhitespace(text), modWhitespace(d.reprint()), p.toString());
            assertTrue(d.warnings().stream().allMatch(w -> w.message().contains("never defined")), d.warnings()::toString);
            // as stored (cut off where the quote stops): the command line reads it to its end and says so
            CliRun r = CliRun.of("dump", p.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains(p + ":1: %HostIrContainer is never closed"), r.err());
            assertEquals(modWhitespace(text), modWhitespace(programs(r.out())), p.toString());
        }
    }

    @Test
    void theOverlapProgramIsStructuredNotText() throws IOException {
        ParsedDump d = HostIrDumpReader.read(Files.readString(CORPUS.resolve("row_parallel_linear_forward.log")));
        List<HostNode> top = d.program().topLevel();
        ForLoop loop = (ForLoop) top.get(2);
        assertTrue(loop.isRange());
        assertEquals("i535", loop.index().name());
        assertEquals(2, loop.body().stream().filter(ShardByStream.class::isInstance).count());
    }

    @Test
    void streamAddressesAndLoopIndicesAreNamesNotValues() throws IOException {
        String text = Files.readString(CORPUS.resolve("row_parallel_linear_forward.log"));
        var a = HostIrDumpReader.read(text).program();
        var b = HostIrDumpReader.read(text.replace("0x174e5c80", "0x7f00aa10").replace("i535", "i18")).program();
        assertTrue(Engine.compare(a, b, "a", "b").equal(), "other addresses and loop numbers: equal");
        var c = HostIrDumpReader.read(text.replace("FOR i535 from 0 to 3:\n    SetCurrentStream",
                "FOR i535 from 0 to 2:\n    SetCurrentStream")).program();
        assertTrue(!Engine.compare(a, c, "a", "c").equal(), "another trip count differs");
    }

    @Test
    void theNormalisationStillSeesARealDifference() {
        String a = "FOR i535 from 0 to 3:\n  Synchronize(Stream i535)";
        assertEquals(modWhitespace(a), modWhitespace("FOR  i535 from 0 to 3:\n Synchronize( Stream i535 )"));
        assertTrue(!modWhitespace(a).equals(modWhitespace("FOR i535 from 0 to 4:\n  Synchronize(Stream i535)")));
        assertTrue(!modWhitespace("stream_index=i5").equals(modWhitespace("stream_index=i 5")),
                "a blank inside a name is kept");
    }
}
