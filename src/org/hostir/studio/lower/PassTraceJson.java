package org.hostir.studio.lower;

import java.util.List;
import java.util.Map;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * The pass trace as JSON ({@code lower --json}), format {@code hostir-pass-trace/1}, documented in
 * {@code docs/pass-trace.md}: per rank, each pass with its name, changed flag, time, printed program and, once
 * the program is Host IR, its node tree with ids, kinds and the fusion op each node came from.
 */
public final class PassTraceJson {
    public static final String FORMAT = "hostir-pass-trace/1";

    private PassTraceJson() {}

    public static String write(String fusionName, PassTrace trace) {
        JsonObject root = new JsonObject();
        root.addProperty("format", FORMAT);
        root.addProperty("fusion", fusionName);
        root.addProperty("devices", trace.devices());
        JsonObject options = new JsonObject();
        trace.options().asMap().forEach(options::addProperty);
        root.add("options", options);
        JsonArray ranks = new JsonArray();
        for (PassTrace.RankTrace r : trace.ranks()) {
            JsonObject rank = new JsonObject();
            rank.addProperty("rank", r.rank());
            rank.add("input", snapshot(r.input()));
            JsonArray passes = new JsonArray();
            for (PassTrace.Step step : r.steps()) {
                JsonObject pass = snapshot(step.after());
                pass.addProperty("name", step.pass());
                pass.addProperty("changed", step.changed());
                pass.addProperty("micros", step.nanos() / 1000);
                passes.add(pass);
            }
            rank.add("passes", passes);
            ranks.add(rank);
        }
        root.add("ranks", ranks);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root) + "\n";
    }

    private static JsonObject snapshot(Snapshot s) {
        JsonObject o = new JsonObject();
        o.addProperty("kind", s instanceof Snapshot.OfHost ? "host" : "fusion");
        o.addProperty("text", s.print());
        if (s instanceof Snapshot.OfHost(HostIrContainer c)) o.add("nodes", nodes(c.topLevel(), c.provenance()));
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
