package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hirstudio check}: the summary of a valid fusion, one line per diagnostic for a broken one. */
class CheckCommandTest {

    static String example(String name) { return TestPaths.repo("examples", "seeds", name).toString(); }

    @Test
    void summarisesAValidFusion() {
        CliRun r = CliRun.run("check", example("ag_matmul_p2p.fusion"), "--devices", "4", "--set", "N=12");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        List<String> out = r.outLines();
        assertEquals("fusion ag_matmul_p2p (" + example("ag_matmul_p2p.fusion") + ")", out.getFirst());
        assertEquals("ok", out.getLast());
        assertTrue(out.contains("devices: 4"), r.out());
        assertTrue(out.contains("  i0   D       = 4 (--devices)"), r.out());
        assertTrue(out.contains("  i2   M       = 8 (default)"), r.out());
        // each input's K is its own symbol, as nvFuser's builder makes them
        assertTrue(out.contains("  i3   K       = 4 (default)"), r.out());
        assertTrue(out.contains("  i4   K       = 4 (default)"), r.out());
        assertTrue(out.contains("  i5   N       = 12 (--set)"), r.out());
        assertTrue(out.contains("  tv2  [Stream D, M, N, rK]  output"), r.out());
        assertTrue(out.contains("       T2_g_float[iStreamIdx5{i0}, iS6{i2}, iS7{i5}, rS8{i3}] (DeviceMesh{0 1 2 3})"),
                r.out());
        assertTrue(out.contains("  tv2 = matmul(tv0, tv1)  T2 = matmul(T0, T1)"), r.out());
        // the math, as nvFuser prints it
        assertTrue(r.out().contains("  %kernel {\n  T2_g_float[iStreamIdx5{i0}, iS6{i2}, iS7{i5}, rS8{i3}]"
                + " (DeviceMesh{0 1 2 3})\n     = matmul(T0_g_float"), r.out());
    }

    @Test
    void everyExampleChecks() throws IOException {
        try (var files = Files.walk(TestPaths.repo("examples"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".fusion"))
                    .filter(p -> !TestPaths.refusedOnPurpose(p)).toList()) {
                CliRun r = CliRun.run("check", f.toString(), "--devices", "4");
                assertEquals(0, r.exitCode(), f + ": " + r.err());
                assertEquals("ok", r.outLines().getLast());
            }
        }
    }

    @Test
    void badInputIsOneLinePerDiagnosticAndExit2(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.fusion");
        Files.writeString(f, Files.readString(Path.of(example("ag_matmul_p2p.fusion")))
                .replace("\"dtype\": \"float\", \"axes\": [\"K\", \"N\"]", "\"dtype\": \"half\", \"axes\": [\"N\", \"N\"]"));
        CliRun r = CliRun.run("check", f.toString());
        assertEquals(2, r.exitCode());
        assertEquals("", r.out());
        List<String> lines = r.errLines();
        assertEquals(2, lines.size(), r.err());
        for (String l : lines) assertTrue(l.matches("error: .*bad\\.fusion:\\d+: \\$\\.ops\\[0\\]: .* \\[[a-z.-]+\\]"), l);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("[dtype.mismatch]")), r.err());
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("[shape.matmul]")), r.err());
    }

    @Test
    void syntaxErrorsAndMissingFiles(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("cut.fusion");
        Files.writeString(f, "{\n  \"format\": \"hostir-fusion/1\",\n  \"tensors\": [\n");
        CliRun r = CliRun.run("check", f.toString());
        assertEquals(2, r.exitCode());
        assertEquals(List.of("error: " + f + ":3: $.tensors[0]: unexpected end of file [json.syntax]"), r.errLines());
        CliRun missing = CliRun.run("check", dir.resolve("none.fusion").toString());
        assertEquals(2, missing.exitCode());
        assertEquals(List.of("error: " + dir.resolve("none.fusion") + ": $: no such file [file.read]"), missing.errLines());
    }

    @Test
    void scatterNeedsFourDevices() {
        // without --devices the count the meshes need (issue 16 item 6); fewer are refused with that count
        CliRun byDefault = CliRun.run("check", example("scatter_two_stages.fusion"));
        assertEquals(0, byDefault.exitCode());
        assertTrue(byDefault.out().contains("devices: 4"), byDefault.out());
        CliRun two = CliRun.run("check", example("scatter_two_stages.fusion"), "--devices=2");
        assertEquals(2, two.exitCode());
        assertTrue(two.err().contains("it needs --devices 4 [mesh.device-range]"), two.err());
        assertEquals(0, CliRun.run("check", example("scatter_two_stages.fusion"), "--devices=4").exitCode());
    }

    @Test
    void setOfAnUnknownSymbolIsRefused() {
        CliRun r = CliRun.run("check", example("allgather_p2p.fusion"), "--set", "Q=3");
        assertEquals(2, r.exitCode());
        assertEquals(List.of("error: " + example("allgather_p2p.fusion") + ": --set Q: the fusion has no symbol 'Q'"
                + " (its symbols: M, D) [symbol.unknown]"), r.errLines());
    }

    @Test
    void badUsageIsOneErrorLinePlusUsage() {
        CliRun r = CliRun.run("check");
        assertEquals(2, r.exitCode());
        assertEquals(List.of("error: check: missing FILE.fusion",
                "usage: hirstudio check FILE.fusion [--devices N] [--nvfuser 2025-06|2026-04] [--set SYM=N ...]"
                + " [--option KEY=VALUE ...]"),
                r.errLines());
        assertEquals("error: check: --devices must be between 1 and 16384, got 0",
                CliRun.run("check", "x.fusion", "--devices", "0").errLines().getFirst());
        assertEquals("error: check: --set: D is the number of devices; use --devices N",
                CliRun.run("check", "x.fusion", "--set", "D=4").errLines().getFirst());
        assertEquals("error: check: unknown option '--rank'",
                CliRun.run("check", "x.fusion", "--rank", "1").errLines().getFirst());
        assertEquals("error: check: unexpected argument 'y.fusion'",
                CliRun.run("check", "x.fusion", "y.fusion").errLines().getFirst());
    }
}
