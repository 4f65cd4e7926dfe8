package org.hostir.studio.exec.sim;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import org.hostir.studio.ir.DataType;

/**
 * Hardware profiles as JSON files ({@code "format": "hirstudio-profile/1"}; schema in docs/simulation.md): reading
 * one with a one-line reason for whatever is wrong with it, the built-in ones by name, and writing one
 * ({@code hirstudio calibrate}).
 */
public final class ProfileJson {
    public static final String FORMAT = "hirstudio-profile/1";
    /** The profiles shipped beside this class, {@code profiles/NAME.json}. */
    public static final List<String> BUILT_IN = List.of("h100x1-measured", "h200x2-measured", "h100x8-nvlink",
            "h200x8-nvlink", "gb200-nvl72", "h100-ib-cluster");

    /** A profile that cannot be used; the message names the file and the field. */
    public static final class ProfileException extends Exception {
        public ProfileException(String message) { super(message); }
    }

    private ProfileJson() {}

    /** A built-in profile by name, or else the file at {@code nameOrFile}. */
    public static HardwareProfile resolve(String nameOrFile) throws ProfileException {
        if (BUILT_IN.contains(nameOrFile)) return builtIn(nameOrFile);
        Path path = Path.of(nameOrFile);
        if (!Files.isRegularFile(path)) throw new ProfileException("no profile named '" + nameOrFile + "' and no such"
                + " file; built-in profiles: " + String.join(", ", BUILT_IN));
        try {
            return read(Files.readString(path), nameOrFile);
        } catch (IOException e) {
            throw new ProfileException(nameOrFile + ": cannot read: " + e.getMessage());
        }
    }

    public static HardwareProfile builtIn(String name) throws ProfileException {
        try (InputStream in = ProfileJson.class.getResourceAsStream("profiles/" + name + ".json")) {
            if (in == null) throw new ProfileException("built-in profile " + name + " is missing from the engine");
            return read(new String(in.readAllBytes(), StandardCharsets.UTF_8), name + ".json");
        } catch (IOException e) {
            throw new ProfileException(name + ": " + e.getMessage());
        }
    }

    /** Reads a profile from its text; {@code label} names it in messages. */
    public static HardwareProfile read(String text, String label) throws ProfileException {
        JsonObject o;
        try {
            JsonElement e = JsonParser.parseString(text);
            if (!e.isJsonObject()) throw new ProfileException(label + ": a profile is a JSON object");
            o = e.getAsJsonObject();
        } catch (JsonParseException e) {
            throw new ProfileException(label + ": not JSON: " + e.getMessage());
        }
        Reader r = new Reader(label);
        if (!FORMAT.equals(r.string(o, "format"))) throw new ProfileException(label + ": format must be " + FORMAT);
        try {
            JsonObject links = r.object(o, "links");
            JsonObject contention = r.object(o, "contention");
            return new HardwareProfile(r.string(o, "name"), r.string(o, "description"), r.string(o, "source"),
                    (int) r.positive(o, "gpusPerNode"), gemm(r, r.object(o, "gemm")), link(r, links, "nvlink"),
                    link(r, links, "network"), link(r, links, "copyEngine"),
                    new HardwareProfile.Contention(r.fraction(contention, "computeSlowdown"),
                            r.fraction(contention, "ncclSlowdown")), dispatch(r, r.object(o, "dispatchUs")));
        } catch (IllegalArgumentException e) {
            throw new ProfileException(label + ": " + e.getMessage());
        }
    }

    private static HardwareProfile.Gemm gemm(Reader r, JsonObject g) throws ProfileException {
        Map<DataType, Double> peak = new EnumMap<>(DataType.class);
        JsonObject peaks = r.object(g, "peakTflops");
        for (String key : peaks.keySet()) {
            DataType t;
            try {
                t = DataType.fromFileName(key);
            } catch (IllegalArgumentException e) {
                throw new ProfileException(r.label + ": gemm.peakTflops: " + e.getMessage());
            }
            peak.put(t, r.positive(peaks, key));
        }
        List<double[]> curve = new ArrayList<>();
        JsonArray points = r.array(g, "efficiency");
        for (JsonElement p : points) {
            if (!p.isJsonArray() || p.getAsJsonArray().size() != 2) {
                throw new ProfileException(r.label + ": gemm.efficiency: each point is [size, fraction]");
            }
            double size = p.getAsJsonArray().get(0).getAsDouble(), f = p.getAsJsonArray().get(1).getAsDouble();
            if (size <= 0 || f <= 0 || f > 1 || (!curve.isEmpty() && size <= curve.getLast()[0])) {
                throw new ProfileException(r.label + ": gemm.efficiency: sizes must increase and fractions lie in"
                        + " (0, 1]");
            }
            curve.add(new double[] {size, f});
        }
        if (curve.isEmpty()) throw new ProfileException(r.label + ": gemm.efficiency needs at least one point");
        return new HardwareProfile.Gemm(peak, r.positive(g, "memoryGBps"), r.nonNegative(g, "launchUs"), curve);
    }

    private static HardwareProfile.Link link(Reader r, JsonObject links, String name) throws ProfileException {
        JsonObject l = r.object(links, name);
        return new HardwareProfile.Link(r.nonNegative(l, "alphaUs"), r.positive(l, "busGBps"));
    }

    private static HardwareProfile.Dispatch dispatch(Reader r, JsonObject d) throws ProfileException {
        Map<String, Double> byNode = new TreeMap<>();
        for (String key : d.keySet()) {
            if (!key.equals("default")) byNode.put(key, r.nonNegative(d, key));
        }
        return new HardwareProfile.Dispatch(r.nonNegative(d, "default"), byNode);
    }

    /** Field access with messages that name the profile and the field. */
    private record Reader(String label) {
        private JsonElement field(JsonObject o, String key) throws ProfileException {
            JsonElement e = o.get(key);
            if (e == null || e.isJsonNull()) throw new ProfileException(label + ": missing field '" + key + "'");
            return e;
        }

        String string(JsonObject o, String key) throws ProfileException {
            JsonElement e = field(o, key);
            if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
                throw new ProfileException(label + ": '" + key + "' must be a string");
            }
            return e.getAsString();
        }

        JsonObject object(JsonObject o, String key) throws ProfileException {
            JsonElement e = field(o, key);
            if (!e.isJsonObject()) throw new ProfileException(label + ": '" + key + "' must be an object");
            return e.getAsJsonObject();
        }

        JsonArray array(JsonObject o, String key) throws ProfileException {
            JsonElement e = field(o, key);
            if (!e.isJsonArray()) throw new ProfileException(label + ": '" + key + "' must be an array");
            return e.getAsJsonArray();
        }

        double nonNegative(JsonObject o, String key) throws ProfileException {
            JsonElement e = field(o, key);
            if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber() || !(e.getAsDouble() >= 0)
                    || Double.isInfinite(e.getAsDouble())) {
                throw new ProfileException(label + ": '" + key + "' must be a number >= 0");
            }
            return e.getAsDouble();
        }

        double positive(JsonObject o, String key) throws ProfileException {
            double v = nonNegative(o, key);
            if (v == 0) throw new ProfileException(label + ": '" + key + "' must be > 0");
            return v;
        }

        double fraction(JsonObject o, String key) throws ProfileException {
            double v = nonNegative(o, key);
            if (v > 10) throw new ProfileException(label + ": '" + key + "' must be at most 10 (a slowdown factor)");
            return v;
        }
    }

    /** The profile as the JSON text {@link #read} reads back (what {@code calibrate} writes). */
    public static String write(HardwareProfile p) {
        JsonObject o = new JsonObject();
        o.addProperty("format", FORMAT);
        o.addProperty("name", p.name());
        o.addProperty("description", p.description());
        o.addProperty("source", p.source());
        o.addProperty("gpusPerNode", p.gpusPerNode());
        JsonObject g = new JsonObject();
        JsonObject peaks = new JsonObject();
        new TreeMap<>(p.gemm().peakTflops()).forEach((t, v) -> peaks.addProperty(t.fileName(), v));
        g.add("peakTflops", peaks);
        g.addProperty("memoryGBps", p.gemm().memoryGBps());
        g.addProperty("launchUs", p.gemm().launchUs());
        JsonArray curve = new JsonArray();
        for (double[] pt : p.gemm().efficiency()) {
            JsonArray a = new JsonArray();
            a.add(pt[0]);
            a.add(round(pt[1]));
            curve.add(a);
        }
        g.add("efficiency", curve);
        o.add("gemm", g);
        JsonObject links = new JsonObject();
        links.add("nvlink", link(p.nvlink()));
        links.add("network", link(p.network()));
        links.add("copyEngine", link(p.copyEngine()));
        o.add("links", links);
        JsonObject c = new JsonObject();
        c.addProperty("computeSlowdown", p.contention().computeSlowdown());
        c.addProperty("ncclSlowdown", p.contention().ncclSlowdown());
        o.add("contention", c);
        JsonObject d = new JsonObject();
        d.addProperty("default", p.dispatch().defaultUs());
        new TreeMap<>(p.dispatch().byNode()).forEach(d::addProperty);
        o.add("dispatchUs", d);
        return new GsonBuilder().setPrettyPrinting().create().toJson(o) + "\n";
    }

    private static JsonObject link(HardwareProfile.Link l) {
        JsonObject o = new JsonObject();
        o.addProperty("alphaUs", round(l.alphaUs()));
        o.addProperty("busGBps", round(l.busGBps()));
        return o;
    }

    private static double round(double v) { return Double.parseDouble(String.format(Locale.ROOT, "%.4g", v)); }
}
