package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The corpus of dumps nvFuser main quotes (examples/dumps/nvfuser-2026-04, each cited in its SOURCES.md): every
 * one reads with no warning and nothing kept as text, is detected as 2026-04, and prints back equal modulo
 * whitespace, through the reader and through {@code ./hirstudio dump}.
 */
class DumpCorpusTest {
    private static final Path CORPUS = RepoPaths.repo().resolve("examples/dumps/nvfuser-2026-04");

    private static List<Path> dumps() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
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
            String program = r.out().lines().filter(l -> !l.startsWith("//")).reduce("", (a, b) -> a + b + "\n");
            assertEquals(modWhitespace(Files.readString(p)), modWhitespace(program), p.toString());
            assertTrue(r.out().contains("generation 2026-04"), r.out());
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
    void theNormalisationStillSeesARealDifference() {
        String a = "FOR i535 from 0 to 3:\n  Synchronize(Stream i535)";
        assertEquals(modWhitespace(a), modWhitespace("FOR  i535 from 0 to 3:\n Synchronize( Stream i535 )"));
        assertTrue(!modWhitespace(a).equals(modWhitespace("FOR i535 from 0 to 4:\n  Synchronize(Stream i535)")));
        assertTrue(!modWhitespace("stream_index=i5").equals(modWhitespace("stream_index=i 5")),
                "a blank inside a name is kept");
    }
}
