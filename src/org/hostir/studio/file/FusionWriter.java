package org.hostir.studio.file;

import java.util.List;

import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

/**
 * Writes a {@link FusionDocument} as a {@code hostir-fusion/1} file: fields in a fixed order, defaults left out,
 * plain axes written as bare extents, so that the same document always gives the same text and
 * {@code FusionReader.read(write(doc))} gives {@code doc} back.
 */
public final class FusionWriter {
    private FusionWriter() {}

    public static String write(FusionDocument doc) {
        return JsonPretty.print(toJson(doc));
    }

    static JsonObject toJson(FusionDocument doc) {
        JsonObject o = new JsonObject();
        o.addProperty("format", doc.format());
        o.addProperty("name", doc.name());
        if (doc.description() != null) o.addProperty("description", doc.description());
        if (!doc.symbols().isEmpty()) {
            JsonObject symbols = new JsonObject();
            doc.symbols().forEach(symbols::addProperty);
            o.add("symbols", symbols);
        }
        JsonArray tensors = new JsonArray();
        doc.tensors().forEach(t -> tensors.add(tensor(t)));
        o.add("tensors", tensors);
        JsonArray ops = new JsonArray();
        doc.ops().forEach(op -> ops.add(op(op)));
        o.add("ops", ops);
        o.add("inputs", strings(doc.inputs()));
        o.add("outputs", strings(doc.outputs()));
        if (doc.layout() != null) o.add("layout", doc.layout());
        return o;
    }

    private static JsonObject tensor(TensorSpec t) {
        JsonObject o = new JsonObject();
        o.addProperty("name", t.name());
        o.addProperty("dtype", t.dtype().fileName());
        if (t.memory() != null) o.addProperty("memory", t.memory().dumpName());
        JsonArray axes = new JsonArray();
        t.axes().forEach(a -> axes.add(axis(a)));
        o.add("axes", axes);
        switch (t.mesh()) {
            case MeshSpec.AllDevices all -> o.addProperty("mesh", "all");
            case MeshSpec.Devices d when d.isGrid() -> {
                JsonArray rows = new JsonArray();
                int row = d.shape().get(1);
                for (int i = 0; i < d.ids().size(); i += row) {
                    JsonArray ids = new JsonArray();
                    d.ids().subList(i, i + row).forEach(ids::add);
                    rows.add(ids);
                }
                o.add("mesh", rows);
            }
            case MeshSpec.Devices d -> {
                JsonArray ids = new JsonArray();
                d.ids().forEach(ids::add);
                o.add("mesh", ids);
            }
            case MeshSpec.Absent absent -> { }
        }
        if (!t.loop().isEmpty()) {
            JsonArray steps = new JsonArray();
            t.loop().forEach(step -> steps.add(step(step)));
            o.add("loop", steps);
        }
        if (t.allocationIsLoop()) o.addProperty("allocation", "loop");
        return o;
    }

    private static JsonObject step(LoopStep step) {
        JsonObject o = new JsonObject();
        switch (step) {
            case LoopStep.Split s -> {
                o.addProperty(s.innerSplit() ? "split" : "outer_split", s.axis());
                o.add("factor", extent(s.factor()));
            }
            case LoopStep.Merge m -> o.addProperty("merge", m.axis());
            case LoopStep.Reorder r -> o.add("reorder", numbers(r.order()));
            case LoopStep.Parallelize p -> {
                o.addProperty("parallelize", p.axis());
                o.addProperty("type", p.type().fileName());
            }
            case LoopStep.Swizzle1D z -> {
                o.addProperty("swizzle1d", z.axis());
                o.addProperty("type", z.type().fileName());
            }
        }
        return o;
    }

    private static JsonElement extent(ExtentSpec e) {
        return switch (e) {
            case ExtentSpec.Symbol s -> new JsonPrimitive(s.name());
            case ExtentSpec.Size s -> new JsonPrimitive(s.value());
        };
    }

    private static JsonElement axis(AxisSpec a) {
        JsonElement extent = extent(a.extent());
        if (a.isPlain()) return extent;
        JsonObject o = new JsonObject();
        o.add("extent", extent);
        if (a.iter() != IterType.ITERATION) o.addProperty("iter", a.iter().fileName());
        if (a.parallel() != ParallelType.SERIAL) {
            o.addProperty("parallel", a.parallel().fileName());
        }
        return o;
    }

    private static JsonObject op(OpSpec op) {
        JsonObject o = new JsonObject();
        o.addProperty("op", op.op().fileName());
        o.add("inputs", strings(op.inputs()));
        o.addProperty("output", op.output());
        if (!op.axes().isEmpty()) o.add("axes", numbers(op.axes()));
        if (!op.flags().isEmpty()) {
            JsonArray flags = new JsonArray();
            op.flags().forEach(flags::add);
            o.add("flags", flags);
        }
        if (!op.permute().isEmpty()) o.add("permute", numbers(op.permute()));
        return o;
    }

    private static JsonArray strings(List<String> list) {
        JsonArray a = new JsonArray();
        list.forEach(a::add);
        return a;
    }

    private static JsonArray numbers(List<Integer> list) {
        JsonArray a = new JsonArray();
        list.forEach(a::add);
        return a;
    }
}
