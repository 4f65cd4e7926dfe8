package org.hostir.studio.exec.sim;

import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;


/**
 * Hardware profiles as JSON files ({@code "format": "hirstudio-profile/1"}; each field declared in
 * {@link ProfileField}, docs/simulation.md): the built-in ones' names (resources beside this class,
 * {@code profiles/NAME.json}) and writing one ({@code hirstudio calibrate}). Reading one is the engine's
 * ({@code engine.ProfileFiles}): the simulation reads no files.
 */
public final class ProfileJson {
    public static final String FORMAT = "hirstudio-profile/1";
    /** The profiles shipped beside this class, {@code profiles/NAME.json}. */
    public static final List<String> BUILT_IN = List.of("h100x1-measured", "h200x2-measured",
            "h200x4-measured", "h100x8-nvlink", "h200x8-nvlink", "gb200-nvl72", "h100-ib-cluster");

    private ProfileJson() {}

    /** The profile as the JSON text the engine's profile reader reads back (what {@code calibrate} writes). */
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
        if (!p.ncclP2p().equals(p.nvlink())) links.add("ncclP2p", link(p.ncclP2p()));
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
        if (l.callUs() != 0) o.addProperty("callUs", round(l.callUs()));
        return o;
    }

    private static double round(double v) { return Double.parseDouble(String.format(Locale.ROOT, "%.4g", v)); }
}
