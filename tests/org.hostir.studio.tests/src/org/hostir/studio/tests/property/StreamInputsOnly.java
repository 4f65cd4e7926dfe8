package org.hostir.studio.tests.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Issues 33/34: inputs-only fusions whose only Stream parallelism is a split written on an input, as nvFuser's
 * tests/python/direct/test_stream.py writes them ({@code inp.outer_split(0, c); inp.axis(0).parallelize(stream)}):
 * one input's Serial iteration axis outer-split by a factor that divides its extent, Stream on the outer part, the
 * rest left to propagation. Meshed (an {@link InputsOnly} text, its DIDx inputs kept) or without any mesh (every
 * mesh and device parallel type removed too, test_stream.py's single-device form).
 */
final class StreamInputsOnly {
    private StreamInputsOnly() {}

    /**
     * {@code inputsOnly} (an {@link InputsOnly} text) with a Stream split on one input drawn by {@code r}; empty when
     * no input without loop steps has a Serial iteration axis of extent 2 or more, or (meshed) when an input has a
     * Stream axis of the generator's already: the split is to be the fusion's only Stream parallelism.
     */
    static Optional<String> of(String inputsOnly, Random r, boolean meshless) {
        if (!meshless && inputsOnly.contains("\"Stream")) return Optional.empty();
        JsonObject doc = JsonParser.parseString(inputsOnly).getAsJsonObject();
        Set<String> inputs = new HashSet<>();
        doc.getAsJsonArray("inputs").forEach(e -> inputs.add(e.getAsString()));
        List<JsonObject> candidates = new ArrayList<>();
        for (JsonElement e : doc.getAsJsonArray("tensors")) {
            JsonObject t = e.getAsJsonObject();
            if (meshless) unshard(t);
            if (inputs.contains(t.get("name").getAsString()) && !t.has("loop") && !splittable(doc, t).isEmpty()) {
                candidates.add(t);
            }
        }
        if (candidates.isEmpty()) return Optional.empty();
        JsonObject t = candidates.get(r.nextInt(candidates.size()));
        List<int[]> axes = splittable(doc, t);
        int[] axis = axes.get(r.nextInt(axes.size()));
        List<Integer> factors = new ArrayList<>();
        for (int f = 2; f <= axis[1]; f++) if (axis[1] % f == 0) factors.add(f);
        int factor = factors.get(r.nextInt(factors.size()));
        JsonArray loop = loopOfWrittenTypes(t);
        loop.add(JsonParser.parseString("{\"outer_split\": " + axis[0] + ", \"factor\": " + factor + "}"));
        loop.add(JsonParser.parseString("{\"parallelize\": " + axis[0] + ", \"type\": \"Stream\"}"));
        t.add("loop", loop);
        doc.addProperty("format", "hostir-fusion/2");
        return Optional.of(new GsonBuilder().setPrettyPrinting().create().toJson(doc) + "\n");
    }

    /**
     * The parallel types written on {@code t}'s axes moved into loop steps, taken before the split (a tensor with
     * loop steps states its parallel types there, {@code loop.logical-parallel}).
     */
    private static JsonArray loopOfWrittenTypes(JsonObject t) {
        JsonArray loop = new JsonArray();
        JsonArray axes = t.getAsJsonArray("axes");
        for (int k = 0; k < axes.size(); k++) {
            if (!axes.get(k).isJsonObject() || !axes.get(k).getAsJsonObject().has("parallel")) continue;
            String type = axes.get(k).getAsJsonObject().remove("parallel").getAsString();
            loop.add(JsonParser.parseString("{\"parallelize\": " + k + ", \"type\": \"" + type + "\"}"));
        }
        return loop;
    }

    /** Every mesh and device parallel type of {@code t} removed (a generated input's loop steps are device splits). */
    private static void unshard(JsonObject t) {
        t.remove("mesh");
        t.remove("loop");
        t.remove("allocation");
        for (JsonElement a : t.getAsJsonArray("axes")) if (a.isJsonObject()) a.getAsJsonObject().remove("parallel");
    }

    /** {position, extent} of each Serial iteration axis of {@code t} whose extent is known and at least 2. */
    private static List<int[]> splittable(JsonObject doc, JsonObject t) {
        List<int[]> out = new ArrayList<>();
        JsonArray axes = t.getAsJsonArray("axes");
        for (int k = 0; k < axes.size(); k++) {
            JsonElement a = axes.get(k);
            JsonElement extent = a;
            if (a.isJsonObject()) {
                JsonObject o = a.getAsJsonObject();
                if (o.has("iter") || o.has("parallel")) continue;
                extent = o.get("extent");
            }
            long value = value(doc, extent);
            if (value >= 2) out.add(new int[] {k, (int) value});
        }
        return out;
    }

    /** An extent's value: a number, or a symbol with a number in {@code symbols}; else 0. */
    private static long value(JsonObject doc, JsonElement extent) {
        if (!extent.isJsonPrimitive()) return 0;
        if (extent.getAsJsonPrimitive().isNumber()) return extent.getAsLong();
        JsonObject symbols = doc.getAsJsonObject("symbols");
        String name = extent.getAsString();
        return symbols != null && symbols.has(name) && symbols.get(name).getAsJsonPrimitive().isNumber()
                ? symbols.get(name).getAsLong() : 0;
    }
}
