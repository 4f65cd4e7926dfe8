package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * docs/conformance.md's reader table, checked: every IR node and Val whose toString can appear in an
 * {@code NVFUSER_DUMP=host_ir} output at 81c4b22fd ({@link ReaderConformance#entries}, each written from the toString
 * it cites), put at the top level and inside the FOR body of a real 2026-04 program, is read as the table says:
 * structured, or kept as that one statement's text with a warning naming it. Either way the program is read whole
 * (never refused, nothing thrown) and printed back equal modulo whitespace.
 */
class ReaderConformanceTest {
    private static final String PROGRAM = "examples/dumps/nvfuser-2026-04/row_parallel_linear_forward.log";
    /** The loop body's first statement, after which an entry goes in the loop (one level deeper). */
    private static final String IN_LOOP = "    Synchronize(Stream 0x174e5c80)\n";

    static String program() throws IOException { return Files.readString(RepoPaths.repo().resolve(PROGRAM)); }

    /** The program with {@code statement} (its lines indented from column 0) at the top level or in the loop. */
    static String placed(String program, String statement, boolean inLoop) {
        String indent = inLoop ? "    " : "  ";
        String lines = statement.lines().map(l -> indent + l).reduce((a, b) -> a + "\n" + b).orElseThrow() + "\n";
        int at = inLoop ? program.indexOf(IN_LOOP) + IN_LOOP.length() : program.indexOf(") :\n") + 4;
        return program.substring(0, at) + lines + program.substring(at);
    }

    @Test
    void everyEntryReadsAsTheTableSays() throws IOException {
        String program = program();
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (ReaderConformance.Entry e : ReaderConformance.entries()) {
            for (boolean inLoop : new boolean[] {false, true}) {
                String failure = check(e, placed(program, e.text(), inLoop));
                if (failure != null) failures.add(e.name() + (inLoop ? " (in the loop)" : "") + ": " + failure);
            }
            table.append("| ").append(e.name()).append(" | ").append(e.cited()).append(" | ").append(e.outcome())
                    .append(" |\n");
        }
        System.out.println("ReaderConformanceTest: " + ReaderConformance.entries().size() + " entries\n" + table);
        assertTrue(ReaderConformance.entries().size() >= 60, "entries: " + ReaderConformance.entries().size());
        assertTrue(failures.isEmpty(), failures.size() + " fail:\n" + String.join("\n", failures));
    }

    /** Why a placed entry does not read as its outcome says, or null. */
    static String check(ReaderConformance.Entry e, String text) {
        ParsedDump d;
        String printed;
        try {
            d = HostIrDumpReader.read(text);
            printed = d.reprint();
        } catch (RuntimeException x) {
            return "not read or printed: " + x;
        }
        if (!DumpCorpusTest.modWhitespace(printed).equals(DumpCorpusTest.modWhitespace(text))) {
            return "printed back differently:\n" + printed;
        }
        List<OpaqueNode> kept = d.opaqueNodes();
        String first = e.text().lines().findFirst().orElseThrow().strip();
        return switch (e.outcome()) {
            case STRUCTURED -> kept.isEmpty() && d.warnings().stream().noneMatch(w -> w.message().contains("kept as"))
                    ? null : "kept as text: " + kept + " " + d.warnings();
            case KEPT_AS_TEXT -> {
                if (kept.size() != 1) yield "expected one statement kept as text, got " + kept;
                if (!kept.getFirst().headline().equals(first)) yield "kept from another line: " + kept;
                String quoted = first.substring(0, Math.min(40, first.length()));
                yield d.warnings().stream().anyMatch(w -> w.message().contains("kept as text")
                        && w.message().contains(quoted)) ? null : "no warning names it: " + d.warnings();
            }
        };
    }

    /** The command line reads all of them, one program each, from one log: exit 0, every program found. */
    @Test
    void theCommandLineReadsOneLogOfThemAll() throws IOException {
        String program = program();
        StringBuilder log = new StringBuilder();
        int n = 0;
        for (ReaderConformance.Entry e : ReaderConformance.entries()) {
            log.append("[ RUN      ] Conformance.").append(e.name().replaceAll("\\W", "")).append('\n')
                    .append(placed(program, e.text(), n++ % 2 == 0)).append('\n');
        }
        Path f = Files.createTempFile("conformance", ".log");
        Files.writeString(f, log.toString());
        CliRun r = CliRun.of("dump", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), r.err());
        assertEquals(n, r.out().split("%HostIrContainer \\{", -1).length - 1, r.out());
    }
}
