package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * A torchrun log of {@code NVFUSER_DUMP=fusion_ir,segmented_fusion,host_ir}, written by hand from nvFuser's printers
 * at 81c4b22fd: each line tagged {@code [rankN]:} (torchrun's --tee prefix), a Python warning before, Fusion::print
 * ({@code Inputs:} .. {@code } // %kernel}, csrc/fusion.cpp:522-540) and SegmentedFusion's dump
 * ({@code Segmented_Fusion Dump: -- fusion segments:} .. {@code } //Segmented_Fusion},
 * csrc/fusion_segmenter.cpp:1394-1408) around the containers (HostIrContainer's print, csrc/ir/printer.cpp:60-88),
 * rank 0's and rank 1's lines interleaved, and a second program of rank 0 (another fusion). Each program is found,
 * its rank and generation told, its text printed back; what was skipped is said in one line.
 */
class RealLogTest {
    private static final String CORPUS = "examples/dumps/nvfuser-2026-04/";

    private static String corpus(String name) throws IOException {
        return Files.readString(RepoPaths.repo().resolve(CORPUS + name));
    }

    private static List<String> tagged(String rank, String text) {
        return text.lines().map(l -> "[rank" + rank + "]:" + l).toList();
    }

    /** The fusion_ir and segmented_fusion dumps one rank prints before its container: 9 and 12 lines. */
    private static List<String> otherDumps(String rank) {
        String t0 = "T0_g___bfloat[iS0{i0}, iS1{4}]";
        String t1 = "T1_g___bfloat[iS2{2}, iS3{4}]";
        String t2 = "T2_g___bfloat[iS4{i0}, iS5{2}, rS6{4}]";
        List<String> fusionIr = List.of("Inputs:", "  " + t0, "  " + t1, "Outputs:", "  " + t2, "", "%kernel {",
                t2, "   = linear(" + t0 + ",", "            " + t1 + "      )", "} // %kernel");
        List<String> segments = List.of("Segmented_Fusion Dump: -- fusion segments:", "Segmented_Fusion{ ", "groups: ",
                "  g{(expr_eval)", "group id: 0", "inputs:", "  " + t0, "outputs:", "  " + t2, "}", "edges: ", "",
                "group details:", "} //Segmented_Fusion");
        List<String> out = new ArrayList<>(tagged(rank, String.join("\n", fusionIr)));
        out.addAll(tagged(rank, String.join("\n", segments)));
        return out;
    }

    static String log() throws IOException {
        List<String> rank0 = tagged("0", corpus("row_parallel_linear_forward.log"));
        List<String> rank1 = tagged("1", corpus("test_stream_matmul.log"));
        List<String> lines = new ArrayList<>();
        lines.add("/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py:4631: UserWarning: No device "
                + "id is provided via `init_process_group` or `barrier `.");
        lines.add("  warnings.warn(  # warn only once");
        lines.addAll(otherDumps("0"));
        lines.addAll(otherDumps("1"));
        for (int i = 0; i < Math.max(rank0.size(), rank1.size()); i++) {
            if (i < rank0.size()) lines.add(rank0.get(i));
            if (i < rank1.size()) lines.add(rank1.get(i));
        }
        lines.addAll(tagged("0", corpus("test_stream_two_matmuls_inlinable.log")));
        lines.add("[rank0]:[W1129 06:00:00.000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
                + "destroyed before we destruct ProcessGroupNCCL.");
        return String.join("\n", lines) + "\n";
    }

    @Test
    void eachProgramIsFoundWithItsRankAndGenerationAndTheRestIsSaidInOneLine() throws IOException {
        String log = log();
        List<LogProgram> programs = DumpLog.split(log);
        assertEquals(3, programs.size(), programs.stream().map(LogProgram::describe).toList()::toString);
        String[] names = {"row_parallel_linear_forward.log", "test_stream_matmul.log",
            "test_stream_two_matmuls_inlinable.log"};
        int[] ranks = {0, 1, 0};
        for (int i = 0; i < 3; i++) {
            LogProgram p = programs.get(i);
            assertTrue(p.readable(), p::describe);
            assertEquals(ranks[i], p.rank(), p::describe);
            assertEquals(NvFuserGeneration.V2026_04, p.dump().generation(), p::describe);
            assertEquals(List.of(), p.dump().warnings(), p::describe);
            assertEquals(DumpCorpusTest.modWhitespace(corpus(names[i])),
                    DumpCorpusTest.modWhitespace(p.dump().reprint()), names[i]);
        }
        // the Python warning and its second line ("other"), 2 x 10 of fusion_ir and 2 x 13 of segmented_fusion (blank
        // lines not counted), and NCCL's warning line (other)
        assertEquals("skipped 49 lines of other output: Python warnings 1, other 2, fusion_ir 20, segmented_fusion 26",
                DumpLog.skipped(log, programs));
    }

    @Test
    void theCommandLineSaysItInItsFirstLine() throws IOException {
        Path f = Files.createTempFile("torchrun", ".log");
        Files.writeString(f, log());
        CliRun r = CliRun.of("dump", f.toString(), "--report");
        assertEquals(0, r.code(), r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertEquals("// " + f + ": 3 programs; skipped 49 lines of other output: Python warnings 1, other 2, "
                + "fusion_ir 20, segmented_fusion 26", first);
        assertEquals(3, r.out().lines().filter(l -> l.contains("generation 2026-04")).count(), r.out());
        assertEquals("", r.err());
    }

    @Test
    void aLogOfOnlyAContainerSkipsNothing() throws IOException {
        String dump = corpus("test_stream_matmul.log");
        assertEquals("nothing else in the log", DumpLog.skipped(dump, DumpLog.split(dump)));
    }
}
