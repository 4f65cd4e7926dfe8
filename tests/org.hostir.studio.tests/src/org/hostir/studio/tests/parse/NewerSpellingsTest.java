package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.parse.DumpFormatException;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Spellings of nvFuser 81c4b22fd that its quoted dumps do not show, read as DumpMutationTest found them wanting: meshes
 * of several axes, and a signature the Studio cannot represent, which no longer refuses the whole program.
 */
class NewerSpellingsTest {
    private static final String ROW = "examples/dumps/nvfuser-2026-04/row_parallel_linear_forward.log";

    /** operator<< of DeviceMesh (csrc/multidevice/device_mesh.cpp:53-75): one brace per axis a row opens or closes. */
    @Test
    void meshesOfSeveralAxesAreReadWithTheirShape() {
        String dump = "%HostIrContainer { (T0_g_float[ideviceIdx.x0{2}, iS1{i2}] (DeviceMesh{{{0 1}{2 3}}{{4 5}{6 7}}}))"
                + " -> (T1_g_float[ideviceIdx.y2{2}, iS3{i2}] (DeviceMesh{{0 1 2}{3 4 5}})) :\n} // %HostIrContainer\n";
        ParsedDump d = HostIrDumpReader.read(dump);
        assertEquals(new DeviceMesh(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(2, 2, 2)),
                d.program().inputs().getFirst().mesh());
        assertEquals(new DeviceMesh(List.of(0, 1, 2, 3, 4, 5), List.of(2, 3)), d.program().outputs().getFirst().mesh());
        assertEquals(List.of(), d.warnings());
    }

    @Test
    void aMeshWhoseRowsDifferIsNotAMesh() {
        for (String mesh : List.of("DeviceMesh{{0 1}{2}}", "DeviceMesh{{0 1}2}", "DeviceMesh{{{0}}{1}}")) {
            String dump = "%HostIrContainer { () -> () :\n  Communication 1 (type=Allreduce, team=(0 1), input=T0_g_float"
                    + "[iS0{2}] (" + mesh + "), output=T0_g_float[iS0{2}] (" + mesh + "), backend=NCCL)\n"
                    + "} // %HostIrContainer\n";
            ParsedDump d = HostIrDumpReader.read(dump);
            assertEquals(1, d.opaqueNodes().size(), mesh);
        }
    }

    /** A program whose inputs are of a dtype the Studio does not model (fp4, csrc/type.cpp:255) is read, not refused. */
    @Test
    void anUnreadableSignatureIsKeptAsTextAndPrintedBack() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve(ROW)).replace("T0_g___bfloat[", "T0_g___e2m1[");
        ParsedDump d = HostIrDumpReader.read(text);
        assertTrue(d.signatureText().startsWith("(T0_g___e2m1[istreamIdx7{3}"), d.signatureText());
        assertTrue(d.program().inputs().isEmpty() && d.program().outputs().isEmpty());
        assertTrue(d.warnings().getFirst().message().startsWith("the signature kept as text (unknown data type '__e2m1'"),
                d.warnings()::toString);
        assertEquals(DumpCorpusTest.modWhitespace(text), DumpCorpusTest.modWhitespace(d.reprint()));
        List<HostNode> kept = d.program().allNodes().stream().filter(OpaqueNode.class::isInstance).toList();
        assertEquals(1, kept.size(), "the one ShardByStream reading T0; the rest is structured");
        CliRun r = CliRun.of("dump", write(text).toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(T0_g___e2m1[istreamIdx7{3}"), r.out());
        assertNull(HostIrDumpReader.read(Files.readString(RepoPaths.repo().resolve(ROW))).signatureText());
    }

    /** A signature that does not end its line with ":" is not guessed at: that is still a syntax error. */
    @Test
    void aSignatureWithoutItsColonIsStillRefused() {
        Assertions.assertThrows(DumpFormatException.class, () -> HostIrDumpReader.read(
                "%HostIrContainer { (T0_g___e2m1[iS0{2}]) -> ()\n} // %HostIrContainer\n"));
    }

    private static Path write(String text) throws Exception {
        Path f = Files.createTempFile("fp4", ".log");
        Files.writeString(f, text);
        return f;
    }
}
