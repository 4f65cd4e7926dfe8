package org.hostir.studio.tests.property;

import java.util.HashSet;
import java.util.Set;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Issue 34 item 4: the generated fusions written inputs-only, as nvFuser's Python tests write them: every tensor that
 * is not a fusion input loses its mesh, loop steps, allocation and axis parallel types, which sharding propagation
 * then infers (docs/fusion-file-format.md, "Unstated shardings"). Inputs keep what the generator gave them.
 */
final class InputsOnly {
    private InputsOnly() {}

    /** {@code text} (a generated {@code .fusion}) with everything but its inputs' shardings left unstated. */
    static String of(String text) {
        JsonObject doc = JsonParser.parseString(text).getAsJsonObject();
        Set<String> inputs = new HashSet<>();
        doc.getAsJsonArray("inputs").forEach(e -> inputs.add(e.getAsString()));
        for (JsonElement e : doc.getAsJsonArray("tensors")) {
            JsonObject t = e.getAsJsonObject();
            if (inputs.contains(t.get("name").getAsString())) continue;
            t.remove("mesh");
            t.remove("loop");
            t.remove("allocation");
            for (JsonElement a : t.getAsJsonArray("axes")) {
                if (a.isJsonObject()) a.getAsJsonObject().remove("parallel");
            }
        }
        return new GsonBuilder().setPrettyPrinting().create().toJson(doc) + "\n";
    }

    /** Whether {@code text} left something for propagation: a non-input tensor without a mesh beside one with. */
    static boolean leavesSomethingUnstated(String text) {
        JsonObject doc = JsonParser.parseString(text).getAsJsonObject();
        boolean meshed = false;
        boolean unstated = false;
        for (JsonElement e : doc.getAsJsonArray("tensors")) {
            boolean has = e.getAsJsonObject().has("mesh");
            meshed |= has;
            unstated |= !has;
        }
        return meshed && unstated;
    }
}
