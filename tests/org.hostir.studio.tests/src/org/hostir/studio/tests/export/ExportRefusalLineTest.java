package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hirstudio export} refusing what the target cannot spell names the element at fault as the loader's
 * diagnostics do: {@code error: FILE:LINE: PATH: what [export.unsupported]}, one line, exit 2. The refusals had
 * no line ({@code FILE: export: ...}), so a user had to find the tensor or mesh by reading the message.
 */
class ExportRefusalLineTest {

    /** The 1-based line of the file's tensor entry named {@code tensor}. */
    private static int lineOf(Path file, String tensor) throws Exception {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("{\"name\": \"" + tensor + "\"")) return i + 1;
        }
        throw new AssertionError("no tensor " + tensor + " in " + file);
    }

    private static void refusedAt(CliRun r, Path file, int line, String path, String what) {
        assertEquals(2, r.code(), r.err());
        String expected = "error: " + file + ":" + line + ": " + path + ": ";
        assertEquals(1, r.err().strip().lines().count(), r.err());
        String err = r.err().strip();
        assertEquals(expected, err.substring(0, Math.min(err.length(), expected.length())), err);
        assertEquals(true, err.contains(what) && err.endsWith(" [export.unsupported]"), err);
    }

    @Test
    void aTwoDimensionalMeshIsRefusedAtTheTensorsMesh() throws Exception {
        Path grid = RepoPaths.repo().resolve("examples/parallelism/dp_tp_linear_2x2.fusion");
        refusedAt(CliRun.of("export", "--cpp", grid.toString(), "--devices", "4"), grid, lineOf(grid, "x"),
                "$.tensors[0].mesh", "the mesh of 'x' is 2-D");
    }

    @Test
    void aMeshPythonCannotBuildIsRefusedAtTheFirstTensorOnIt() throws Exception {
        Path reversed = RepoPaths.repo().resolve("examples/ag_matmul_p2p_mesh_reversed.fusion");
        refusedAt(CliRun.of("export", "--python", reversed.toString(), "--devices", "2"), reversed,
                lineOf(reversed, "tv0"), "$.tensors[0].mesh", "mesh [1, 0] is not {0 .. n-1}");
    }

    @Test
    void anInt64TensorAt2025IsRefusedAtTheTensor() throws Exception {
        Path moe = RepoPaths.repo().resolve("examples/moe/moe_topk_grouped_experts.fusion");
        refusedAt(CliRun.of("export", "--python", moe.toString(), "--nvfuser", "2025-06"), moe, lineOf(moe, "slot"),
                "$.tensors[13]", "int64 tensor slot");
    }

    @Test
    void aSymbolWithoutValueIsRefusedAtTheAxisUsingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("unbound.fusion");
        Files.writeString(file, """
                {"format": "hostir-fusion/1", "name": "unbound",
                 "tensors": [
                   {"name": "x", "dtype": "float", "axes": [4, "M"], "mesh": "all"},
                   {"name": "y", "dtype": "float", "axes": [4, "M"], "mesh": "all"}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """);
        for (String language : List.of("--cpp", "--python")) {
            refusedAt(CliRun.of("export", language, file.toString()), file, 3, "$.tensors[0].axes[1]",
                    "symbol 'M' has no value");
        }
    }
}
