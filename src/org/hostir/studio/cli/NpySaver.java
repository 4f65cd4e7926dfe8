package org.hostir.studio.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.OutputFiles;
import org.hostir.studio.engine.RunCommandLine;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.NpyFiles;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * {@code run --save-npy DIR}: the run's inputs (unsharded) and outputs as {@code .npy} files plus
 * {@code manifest.json} (the fusion file, the symbol values, each file's tensor, dtype and shape), so that
 * {@code scripts/check_npy_torch.py} can run the fusion's math in PyTorch and compare. Outputs are gathered over
 * the ranks where this process ran them all; in launcher mode each rank writes its own shard, with the DID axis
 * and the rank's slice of it in the manifest ({@code manifest.rankR.json}).
 */
final class NpySaver {
    static final String FORMAT = "hirstudio-npy/1";
    private static final String FLAG = RunCommandLine.SAVE_NPY;

    private NpySaver() {}

    /**
     * Refuses, before the run, a {@code --save-npy} folder whose files would replace something this tool did not
     * write ({@link OutputFiles}): a file of ours is a manifest of {@link #FORMAT} or a file such a manifest
     * in the folder lists. {@code rank}: the one rank a launcher's process saves, if so.
     */
    static void check(Path dir, Path input, boolean force, Fusion fusion, OptionalInt rank, String file)
            throws EngineFailure {
        OutputFiles.checkFolder(FLAG, dir, input, file);
        List<String> names = new ArrayList<>();
        String suffix = rank.isPresent() ? ".rank" + rank.getAsInt() : "";
        fusion.inputs().forEach(tv -> names.add("in_" + safe(tv.label()) + suffix + ".npy"));
        fusion.outputs().forEach(tv -> names.add("out_" + safe(tv.label()) + suffix + ".npy"));
        names.add("manifest" + suffix + ".json");
        for (String name : names) {
            OutputFiles.check(FLAG, dir.resolve(name), input, force, "a file of a saved run",
                    p -> ours(dir, p), file);
        }
    }

    private static boolean ours(Path dir, Path p) {
        String name = p.getFileName().toString();
        if (name.startsWith("manifest")) return isManifest(p);
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("manifest.*\\.json") && isManifest(f))
                    .anyMatch(m -> read(m).contains("\"file\": " + quote(name)));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isManifest(Path p) {
        return Files.isRegularFile(p) && read(p).contains("\"format\": " + quote(FORMAT));
    }

    /** At most the first MiB of a file (a manifest is a few KiB); empty when it cannot be read. */
    private static String read(Path p) {
        try (InputStream in = Files.newInputStream(p)) {
            return new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static Path save(Path dir, String fusionFile, Fusion fusion, Map<String, Long> symbols, RunResult result,
                     int devices) throws IOException {
        Files.createDirectories(dir);
        List<String> entries = new ArrayList<>();
        boolean allRanks = result.outputs().size() == devices;
        Integer onlyRank = allRanks ? null : new TreeMap<>(result.outputs()).firstKey();
        // a launcher's processes write into one folder at once: each its own copy of the inputs, so that no
        // process reads (in its check) or rewrites a file another is writing
        String suffix = onlyRank == null ? "" : ".rank" + onlyRank;
        for (TensorView tv : fusion.inputs()) {
            DenseTensor t = result.inputs().get(tv.id());
            if (t == null) continue;
            String file = "in_" + safe(tv.label()) + suffix + ".npy";
            write(t, dir.resolve(file));
            entries.add(entry("input", tv, file, t, null));
        }
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView tv = fusion.outputs().get(i);
            if (allRanks) {
                Map<Integer, DenseTensor> locals = new TreeMap<>();
                for (var e : result.outputs().entrySet()) {
                    DenseTensor t = e.getValue().get(i);
                    if (t != null) locals.put(e.getKey(), t);
                }
                if (locals.isEmpty()) continue;
                DenseTensor global = Sharding.gather(tv, locals).tensor();
                String file = "out_" + safe(tv.label()) + ".npy";
                write(global, dir.resolve(file));
                entries.add(entry("output", tv, file, global, null));
            } else {
                for (var e : new TreeMap<>(result.outputs()).entrySet()) {
                    DenseTensor t = e.getValue().get(i);
                    if (t == null) continue;
                    String file = "out_" + safe(tv.label()) + ".rank" + e.getKey() + ".npy";
                    write(t, dir.resolve(file));
                    int axis = Sharding.deviceAxis(tv);
                    String shard = axis < 0 ? null : "{\"axis\": " + axis + ", \"index\": "
                            + tv.mesh().indexOf(e.getKey()) + ", \"count\": " + tv.mesh().size() + "}";
                    entries.add(entry("output", tv, file, t, shard));
                }
            }
        }
        String sym = new TreeMap<>(symbols).entrySet().stream()
                .map(e -> quote(e.getKey()) + ": " + e.getValue()).collect(Collectors.joining(", "));
        String json = "{\n  \"format\": " + quote(FORMAT) + ",\n  \"fusion\": " + quote(fusionFile) + ",\n  \"name\": "
                + quote(fusion.name()) + ",\n  \"symbols\": {" + sym + "},\n  \"backend\": " + quote(result.backend())
                + ",\n  \"tensors\": [\n    " + String.join(",\n    ", entries) + "\n  ]\n}\n";
        Path manifest = dir.resolve(onlyRank == null ? "manifest.json" : "manifest.rank" + onlyRank + ".json");
        OutputFiles.write(manifest, out -> out.write(json.getBytes(StandardCharsets.UTF_8)));
        return manifest;
    }

    private static void write(DenseTensor t, Path file) throws IOException {
        OutputFiles.write(file, out -> out.write(NpyFiles.bytes(t)));
    }

    private static String entry(String role, TensorView tv, String file, DenseTensor t, String shard) {
        return "{\"role\": " + quote(role) + ", \"name\": " + quote(tv.label()) + ", \"file\": " + quote(file)
                + ", \"dtype\": " + quote(t.dtype().fileName()) + ", \"shape\": " + Arrays.toString(t.shape())
                + (shard == null ? "" : ", \"shard\": " + shard) + "}";
    }

    private static String safe(String name) { return name.replaceAll("[^A-Za-z0-9_.-]", "_"); }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
