package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, Deliver 6: a newcomer's first hour. An example that needs more devices runs on the count its meshes
 * need, or says the count; {@code run} warms up and times a median of several iterations by default and names
 * every rank's peak memory; {@code demo} says why its sizes are not the file's; the README and the script's help
 * document {@code --devices} and the command line itself; an undefined symbol is named as one by {@code run}.
 */
class NewcomerTest {
    private static final String SUB_MESH = TestPaths.repo("examples", "allgather_p2p_sub_mesh.fusion").toString();

    @Test
    void anExampleOnDevicesPastTwoGetsTheCountItsMeshesNeed() {
        CliRun check = CliRun.of("check", SUB_MESH);
        assertEquals(0, check.code(), check.err());
        assertTrue(check.out().contains("devices: 4"), check.out());
        CliRun run = CliRun.of("run", SUB_MESH, "--backend", "cpu", "--validate");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("validation: PASS"), run.out());
        CliRun two = CliRun.of("check", SUB_MESH, "--devices", "2");
        assertEquals(2, two.code());
        assertTrue(two.err().contains("it needs --devices 4 [mesh.device-range]"), two.err());
    }

    @Test
    void runWarmsUpAndTimesSeveralIterationsByDefault() {
        CliRun r = CliRun.of("run", TestPaths.repo("examples", "seeds", "allgather.fusion").toString(), "--backend",
                "cpu", "--devices", "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("warm-up 1/1: "), r.out());
        assertTrue(r.out().contains("iteration 5/5: ") && r.out().contains("over 5 iterations"), r.out());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r.out().matches("(?s).*peak memory:.*rank " + rank + " \\d.*"), "rank " + rank + ": " + r.out());
        }
    }

    @Test
    void demoSaysWhyItsSizesAreNotTheFilesDefaults(@TempDir Path dir) {
        CliRun r = CliRun.atHome("demo", "--trace", dir.resolve("demo.trace.json").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("with M=64, K=256, N=256: the file's defaults are the seed test's tiny sizes"),
                r.out());
        assertTrue(r.out().contains("--set M=64 --set K=256 --set N=256 --warmup 1 --iterations 3 --validate"),
                r.out());
    }

    @Test
    void theReadmeAndTheHelpDescribeTheCommandLine() throws IOException {
        String readme = Files.readString(TestPaths.repo("README.md"));
        assertTrue(readme.contains("### The command line's flags") && readme.contains("| `--devices N` |"), "README");
        assertTrue(!readme.contains("see DESIGN.md section 3"), "the README is the CLI reference itself");
        String script = Files.readString(TestPaths.repo("hirstudio"));
        assertTrue(script.contains("check FILE.fusion [--devices N]"), "help shows --devices for check");
        assertTrue(script.contains("first engine command in this checkout: fetching"), "says what the wait is for");
    }

    @Test
    void anUndefinedSymbolIsNamedAsOne(@TempDir Path dir) throws IOException {
        Path f = write(dir, "q", """
                {"format": "hostir-fusion/1", "name": "q", "symbols": {"M": 8},
                 "tensors": [
                  {"name": "a", "dtype": "float", "axes": ["M", "M"]},
                  {"name": "b", "dtype": "float", "axes": ["M", "Q"]},
                  {"name": "c", "dtype": "float", "axes": ["M", "M"]}],
                 "ops": [{"op": "add", "inputs": ["a", "b"], "output": "c"}],
                 "inputs": ["a", "b"], "outputs": ["c"]}
                """);
        // Q may still come from --set, so check cannot refuse it; run names it at its axis, not as a shape mismatch
        oneLine(CliRun.of("run", f.toString(), "--backend", "cpu"), 2, f + ":4: $.tensors[1].axes[1]: symbol Q has"
                + " no value: give it a default in \"symbols\" or run with --set Q=N [run.symbol-unbound]");
    }
}
