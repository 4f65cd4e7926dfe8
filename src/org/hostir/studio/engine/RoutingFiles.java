package org.hostir.studio.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.Routing;
import org.hostir.studio.exec.sim.RoutingModel;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.FileErrors;
import org.hostir.studio.file.JsonPretty;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;

/**
 * The simulator's routing as a run declares it ({@code --routing uniform|zipf:S|histogram:FILE},
 * {@code --capacity-factor F|none}), and routing histograms: a file of per-expert token counts that a CPU or CUDA
 * run writes ({@code --write-routing FILE}: its first grouped_mm's group sizes, the offsets it ran with) and a
 * simulation reads back. JSON: {@code {"format": "hostir-routing/1", "source": "...", "counts": [..]}}.
 */
public final class RoutingFiles {
    public static final String FORMAT = "hostir-routing/1";
    public static final String RULE = "run.routing";

    private RoutingFiles() {}

    /** The keys a schedule sweep varies the routing by ({@code --vary routing=zipf:0,zipf:1.2}): the flags' names. */
    public static final String ROUTING_KEY = RunCommandLine.ROUTING.substring(2),
            CAPACITY_KEY = RunCommandLine.CAPACITY_FACTOR.substring(2);
    public static final Set<String> KEYS = Set.of(ROUTING_KEY, CAPACITY_KEY);

    /** The model {@code routing} and {@code capacity} declare (seeded by the run's seed); refused in one line. */
    public static RoutingModel model(String routing, String capacity, long seed, String file) throws EngineFailure {
        return model(routing, capacity, seed, file, RunCommandLine.ROUTING, RunCommandLine.CAPACITY_FACTOR);
    }

    /** As above, a bad value refused as {@code routingFlag} or {@code capacityFlag}. */
    public static RoutingModel model(String routing, String capacity, long seed, String file, String routingFlag,
                                     String capacityFlag) throws EngineFailure {
        Routing r;
        try {
            r = Routing.parse(routing, RoutingFiles::read);
        } catch (IllegalArgumentException e) {
            throw refused(file, routingFlag, e.getMessage());
        }
        try {
            return new RoutingModel(r, RoutingModel.capacityFactor(capacity), seed);
        } catch (IllegalArgumentException e) {
            throw refused(file, capacityFlag, e.getMessage());
        }
    }

    /** The per-expert counts of a histogram file; an IllegalArgumentException saying what is wrong with it. */
    public static long[] read(String path) {
        JsonElement root;
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            root = JsonParser.parseString(new String(in.readNBytes(1 << 24), StandardCharsets.UTF_8));
        } catch (IOException | InvalidPathException e) {
            throw new IllegalArgumentException("cannot read the histogram " + Texts.printable(path) + ": "
                    + (e instanceof IOException io ? FileErrors.reason(io) : e.getMessage()));
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(Texts.printable(path) + " is not JSON");
        }
        if (!root.isJsonObject() || !new JsonPrimitive(FORMAT).equals(root.getAsJsonObject().get("format"))) {
            throw new IllegalArgumentException(Texts.printable(path) + " is not a routing histogram (\"format\": \""
                    + FORMAT + "\")");
        }
        JsonElement counts = root.getAsJsonObject().get("counts");
        if (counts == null || !counts.isJsonArray()) {
            throw new IllegalArgumentException(Texts.printable(path) + ": \"counts\" must be an array of integers");
        }
        long[] out = new long[counts.getAsJsonArray().size()];
        for (int i = 0; i < out.length; i++) {
            JsonElement c = counts.getAsJsonArray().get(i);
            if (!c.isJsonPrimitive() || !c.getAsJsonPrimitive().isNumber()
                    || c.getAsDouble() != Math.rint(c.getAsDouble())) {
                throw new IllegalArgumentException(Texts.printable(path) + ": counts[" + i + "] is not an integer");
            }
            out[i] = c.getAsLong();
        }
        return out;
    }

    /** Whether {@code p} is a histogram file this tool wrote (so {@code --write-routing} may replace it). */
    public static boolean wroteThis(Path p) {
        try {
            read(p.toString());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Writes {@code counts} as a histogram file ({@link AtomicFiles}: a failed write replaces nothing). */
    public static void write(Path path, long[] counts, String source) throws IOException {
        JsonObject json = new JsonObject();
        json.addProperty("format", FORMAT);
        json.addProperty("source", source);
        JsonArray a = new JsonArray();
        for (long c : counts) a.add(c);
        json.add("counts", a);
        AtomicFiles.write(path, out -> {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            w.write(JsonPretty.print(json));
            w.write('\n');
            w.flush();
        });
    }

    /**
     * The run's per-expert token counts: the group sizes of the fusion's first grouped_mm whose offsets split its
     * tokens ({@code [m, k] x [g, k, n]}), from the offsets the run used; an IllegalArgumentException when the
     * fusion has none or the run kept no inputs (a simulation).
     */
    public static long[] measured(Fusion fusion, RunResult result) {
        for (FusionOp op : fusion.ops()) {
            if (op instanceof FusionOp.GroupedMm g && g.a().axes().size() == 2 && g.b().axes().size() == 3) {
                DenseTensor offsets = result.inputs().get(g.offsets().id());
                if (offsets == null) throw new IllegalArgumentException("the " + result.backend() + " run kept no"
                        + " input " + g.offsets().name() + " (a simulation has no data: run on cpu or cuda)");
                long[] ends = offsets.toLongArray();
                long[] counts = new long[ends.length];
                for (int i = 0; i < ends.length; i++) counts[i] = ends[i] - (i == 0 ? 0 : ends[i - 1]);
                return counts;
            }
        }
        throw new IllegalArgumentException("the fusion has no grouped_mm of tokens by expert ([m, k] x [g, k, n])"
                + " whose group sizes are its routing");
    }

    private static EngineFailure refused(String file, String flag, String message) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, flag, RULE, message,
                new Subject.Setting(flag))));
    }
}
