package org.hostir.studio.lower;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * The pass trace as JSON ({@code lower --json}), format {@code hostir-pass-trace/2}, documented in
 * {@code docs/pass-trace.md}: per distinct program, the ranks that share it and each pass with its name, changed flag, time, printed program and, once
 * the program is Host IR, its node tree with ids, kinds and the fusion op each node came from.
 */
public final class PassTraceJson {
    public static final String FORMAT = "hostir-pass-trace/2";

    private PassTraceJson() {}

    public static String write(String fusionName, PassTrace trace) {
        Programs programs = new Programs(fusionName, trace.devices(), trace.options());
        trace.ranks().forEach(programs::add);
        return programs.json();
    }

    /**
     * The trace being built rank by rank: a rank whose input, passes, changed flags and programs equal an earlier
     * rank's joins that rank's entry instead of repeating it (an SPMD program is the same text on every rank:
     * 4,096 copies of it were 482 MB at 1,024 devices and ran out of memory at 4,096). Only the distinct programs
     * are kept, so ranks can be lowered one at a time.
     */
    public static final class Programs {
        private final JsonObject root = new JsonObject();
        private final Map<List<Object>, JsonObject> byProgram = new LinkedHashMap<>();
        private final Map<List<Object>, JsonArray> ranksOf = new LinkedHashMap<>();

        public Programs(String fusionName, int devices, LoweringOptions options) {
            root.addProperty("format", FORMAT);
            root.addProperty("fusion", fusionName);
            root.addProperty("devices", devices);
            JsonObject o = new JsonObject();
            options.asMap().forEach(o::addProperty);
            root.add("options", o);
        }

        public void add(PassTrace.RankTrace r) {
            // the IR is records all the way down: equal keys are equal programs, compared without printing them
            List<Object> key = new java.util.ArrayList<>(List.of(content(r.input())));
            r.steps().forEach(step -> key.addAll(List.of(step.pass(), step.changed(), content(step.after()))));
            JsonArray ranks = ranksOf.get(key);
            if (ranks != null) {
                ranks.add(r.rank());
                return;
            }
            JsonObject program = new JsonObject();
            program.add("input", snapshot(r.input()));
            JsonArray passes = new JsonArray();
            for (PassTrace.Step step : r.steps()) {
                JsonObject pass = snapshot(step.after());
                pass.addProperty("name", step.pass());
                pass.addProperty("changed", step.changed());
                passes.add(pass);
            }
            program.add("passes", passes);
            for (int i = 0; i < r.steps().size(); i++) {
                passes.get(i).getAsJsonObject().addProperty("micros", r.steps().get(i).nanos() / 1000);
            }
            ranks = new JsonArray();
            ranks.add(r.rank());
            ranksOf.put(key, ranks);
            byProgram.put(key, program);
        }

        /** What a snapshot prints, as a value: the IR records without the id counters (a mutable allocator). */
        private static Object content(Snapshot s) {
            return switch (s) {
                case Snapshot.OfFusion(Fusion f, _) -> List.of(f.name(), f.inputs(), f.ops(), f.outputs(), f.symbols());
                case Snapshot.OfHost(HostIrContainer c, _) -> List.of(c.inputs(), c.outputs(), c.topLevel(),
                        c.hostUnits(), c.symbols(), c.provenance());
            };
        }

        public String json() {
            JsonArray programs = new JsonArray();
            byProgram.forEach((key, program) -> {
                JsonObject entry = new JsonObject();
                entry.add("ranks", ranksOf.get(key));
                program.entrySet().forEach(e -> entry.add(e.getKey(), e.getValue()));
                programs.add(entry);
            });
            JsonObject out = root.deepCopy();
            out.add("programs", programs);
            return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(out) + "\n";
        }
    }

    private static JsonObject snapshot(Snapshot s) {
        JsonObject o = new JsonObject();
        o.addProperty("kind", s instanceof Snapshot.OfHost ? "host" : "fusion");
        o.addProperty("text", s.print());
        if (s instanceof Snapshot.OfHost(HostIrContainer c, _)) o.add("nodes", nodes(c.topLevel(), c.provenance()));
        return o;
    }

    private static JsonArray nodes(List<HostNode> nodes, Map<Integer, Integer> provenance) {
        JsonArray out = new JsonArray();
        for (HostNode n : nodes) {
            JsonObject o = new JsonObject();
            o.addProperty("id", n.id());
            o.addProperty("kind", n.getClass().getSimpleName());
            o.addProperty("text", HostIrPrinter.headline(n));
            Integer op = provenance.get(n.id());
            if (op != null) o.addProperty("op", op);
            List<List<HostNode>> bodies = n.bodies();
            if (!bodies.isEmpty()) {
                JsonArray bs = new JsonArray();
                for (List<HostNode> body : bodies) bs.add(nodes(body, provenance));
                o.add("bodies", bs);
            }
            out.add(o);
        }
        return out;
    }
}
