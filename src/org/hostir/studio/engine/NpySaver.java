package org.hostir.studio.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.NpyFiles;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.JsonPretty;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

/**
 * {@code run --save-npy DIR}: the run's inputs (unsharded) and outputs as {@code .npy} files plus
 * {@code manifest.json} (the fusion file, the symbol values, each file's tensor, dtype and shape), so that
 * {@code scripts/check_npy_torch.py} can run the fusion's math in PyTorch and compare. Outputs are gathered over
 * the ranks where this process ran them all; in launcher mode each rank writes its own shard, with the DID axis
 * and the rank's slice of it in the manifest ({@code manifest.rankR.json}). In the engine, so that every front
 * end (the command line, the IDE) saves a run's tensors the same way.
 */
public final class NpySaver {
    public static final String FORMAT = "hirstudio-npy/1";
    private static final String FLAG = RunCommandLine.SAVE_NPY;

    private NpySaver() {}

    /**
     * The {@code --save-npy} folder and every file this run will write in it, added to {@code plan}
     * ({@link OutputFiles}): an existing file is ours when it is a manifest of {@link #FORMAT} or a file such a
     * manifest in the folder lists. {@code rank}: the one rank a launcher's process saves, if so.
     */
    public static OutputFiles plan(OutputFiles plan, Path dir, Fusion fusion, OptionalInt rank) {
        OutputFiles out = plan.writesInto(FLAG, dir, "the saved tensors");
        String suffix = rank.isPresent() ? ".rank" + rank.getAsInt() : "";
        List<String> names = new ArrayList<>();
        fusion.inputs().forEach(tv -> names.add("in_" + safe(tv.label()) + suffix + ".npy"));
        fusion.outputs().forEach(tv -> names.add("out_" + safe(tv.label()) + suffix + ".npy"));
        names.add("manifest" + suffix + ".json");
        for (String name : names) {
            out = out.writes(FLAG, dir.resolve(name), name.endsWith(".json") ? "the manifest of a saved run"
                    : "a file of a saved run", p -> ours(dir, p));
        }
        return out;
    }

    private static boolean ours(Path dir, Path p) {
        String name = p.getFileName().toString();
        if (name.startsWith("manifest")) return manifest(p).isPresent();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("manifest.*\\.json"))
                    .map(NpySaver::manifest).flatMap(Optional::stream).anyMatch(m -> lists(m, name));
        } catch (IOException e) {
            return false;
        }
    }

    /** A manifest of {@link #FORMAT} (at most its first MiB is read: a manifest is a few KiB). */
    private static Optional<JsonObject> manifest(Path p) {
        if (!Files.isRegularFile(p)) return Optional.empty();
        try (InputStream in = Files.newInputStream(p)) {
            JsonElement e = JsonParser.parseString(new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8));
            return e.isJsonObject() && new JsonPrimitive(FORMAT).equals(e.getAsJsonObject().get("format"))
                    ? Optional.of(e.getAsJsonObject()) : Optional.empty();
        } catch (IOException | JsonParseException | IllegalStateException e) {
            return Optional.empty();
        }
    }

    private static boolean lists(JsonObject manifest, String file) {
        JsonElement tensors = manifest.get("tensors");
        if (tensors == null || !tensors.isJsonArray()) return false;
        JsonPrimitive name = new JsonPrimitive(file);
        for (JsonElement t : tensors.getAsJsonArray()) {
            if (t.isJsonObject() && name.equals(t.getAsJsonObject().get("file"))) return true;
        }
        return false;
    }

    /**
     * Writes the run's inputs and outputs (gathered over the ranks where this process ran them all) and the
     * manifest into {@code dir}; returns the manifest's path.
     */
    public static Path save(Path dir, String fusionFile, Fusion fusion, Map<String, Long> symbols, RunResult result,
                            int devices) throws IOException {
        Files.createDirectories(dir);
        JsonArray entries = new JsonArray();
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
        saveOutputs(dir, fusion, result, allRanks, entries);
        JsonObject json = new JsonObject();
        json.addProperty("format", FORMAT);
        json.addProperty("fusion", fusionFile);
        json.addProperty("name", fusion.name());
        JsonObject sym = new JsonObject();
        new TreeMap<>(symbols).forEach(sym::addProperty);
        json.add("symbols", sym);
        json.addProperty("backend", result.backend());
        json.add("tensors", entries);
        Path manifest = dir.resolve(onlyRank == null ? "manifest.json" : "manifest.rank" + onlyRank + ".json");
        AtomicFiles.write(manifest, out -> out.write(JsonPretty.print(json).getBytes(StandardCharsets.UTF_8)));
        return manifest;
    }

    /** Each output, gathered over the ranks where this process ran them all, else each rank's shard. */
    private static void saveOutputs(Path dir, Fusion fusion, RunResult result, boolean allRanks, JsonArray entries)
            throws IOException {
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
                    JsonObject shard = null;
                    if (axis >= 0) {
                        shard = new JsonObject();
                        shard.addProperty("axis", axis);
                        shard.addProperty("index", tv.mesh().indexOf(e.getKey()));
                        shard.addProperty("count", tv.mesh().size());
                    }
                    entries.add(entry("output", tv, file, t, shard));
                }
            }
        }
    }

    private static void write(DenseTensor t, Path file) throws IOException {
        AtomicFiles.write(file, out -> out.write(NpyFiles.bytes(t)));
    }

    private static JsonObject entry(String role, TensorView tv, String file, DenseTensor t, JsonObject shard) {
        JsonObject o = new JsonObject();
        o.addProperty("role", role);
        o.addProperty("name", tv.label());
        o.addProperty("file", file);
        o.addProperty("dtype", t.dtype().fileName());
        JsonArray shape = new JsonArray();
        for (long n : t.shape()) shape.add(n);
        o.add("shape", shape);
        if (shard != null) o.add("shard", shard);
        return o;
    }

    private static String safe(String name) { return name.replaceAll("[^A-Za-z0-9_.-]", "_"); }
}
