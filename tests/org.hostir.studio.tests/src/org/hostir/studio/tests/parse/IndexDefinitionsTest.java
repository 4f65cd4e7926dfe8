package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.host.IndexDefinition;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: the "Index definitions:" block of {@code NVFUSER_DUMP=host_ir(indices)} (#5327, csrc/ir/printer.cpp:90-102
 * at 81c4b22fd) is read as structured definitions and printed back as nvFuser prints it.
 */
class IndexDefinitionsTest {
    private static final String BLOCK = """

            Index definitions:
              i84 = i82 % 8;
              i82 = rank + streamIdx;
              i30 = 8 * 128;

            """;

    @Test
    void theQuotedBlockOf5327IsReadAndPrintedBack() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve("examples/dumps/nvfuser-indices/p2p_allgather_5327.log"));
        ParsedDump d = HostIrDumpReader.read(text);
        assertEquals(10, d.indices().size(), d.indices().toString());
        IndexDefinition i84 = d.indices().get(8);
        assertEquals(new IndexDefinition(new NamedScalar("i84"), new ScalarBinary(ScalarBinary.Op.MOD,
                new NamedScalar("i82"), new Extent.Constant(8))), i84);
        String block = text.substring(text.indexOf("Index definitions:"));
        String printed = d.reprint();
        assertEquals(DumpCorpusTest.modWhitespace(block),
                DumpCorpusTest.modWhitespace(printed.substring(printed.indexOf("Index definitions:"))));
        assertEquals(43, d.lastLine(), "the block is part of the program's lines");
    }

    /** Found by DumpMutationTest: a log with "\r\n" line ends lost its whole block, silently. */
    @Test
    void aBlockWithWindowsLineEndsIsReadAllTheSame() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve("examples/dumps/nvfuser-indices/p2p_allgather_5327.log"));
        ParsedDump d = HostIrDumpReader.read(text.replace("\n", "\r\n"));
        assertEquals(HostIrDumpReader.read(text).indices(), d.indices());
        assertEquals(43, d.lastLine());
    }

    @Test
    void aNewestDialectDumpWithIndicesRoundTrips(@TempDir Path dir) throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve("examples/dumps/nvfuser-2026-04/row_parallel_linear_forward.log"))
                .stripTrailing() + "\n" + BLOCK;
        ParsedDump d = HostIrDumpReader.read(text);
        assertEquals(List.of(), d.warnings());
        assertEquals(NvFuserGeneration.V2026_04, d.generation());
        assertEquals(3, d.indices().size());
        assertEquals(DumpCorpusTest.modWhitespace(text), DumpCorpusTest.modWhitespace(d.reprint()));
        Path log = dir.resolve("with-indices.log");
        Files.writeString(log, text);
        CliRun r = CliRun.of("dump", log.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Index definitions:\n  i84 = i82 % 8;\n  i82 = rank + streamIdx;\n"), r.out());
    }

    @Test
    void aDefinitionOfAnotherShapeIsKeptAsTextWithAWarning() {
        String text = "%HostIrContainer { () -> () :\n} // %HostIrContainer\n\nIndex definitions:\n"
                + "  i5 = ceilDiv(i3, 4);\n  i6 = i5 * 2;\n\n";
        ParsedDump d = HostIrDumpReader.read(text);
        assertEquals(2, d.indices().size());
        assertEquals(1, d.warnings().size(), d.warnings().toString());
        assertTrue(d.warnings().getFirst().message().contains("kept as text: i5 = ceilDiv(i3, 4)"));
        assertTrue(d.reprint().contains("  i5 = ceilDiv(i3, 4);\n  i6 = i5 * 2;\n"), d.reprint());
    }
}
