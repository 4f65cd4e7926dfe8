package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.io.Diagnostic;
import org.hostir.studio.io.FusionLocator;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.RuntimeShapes;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.lower.SegmentPass;
import org.hostir.studio.lower.Snapshot;

/**
 * What a run will hold, decided before it starts, so that a size this machine cannot hold is a diagnostic that
 * names the tensors, not an exception from deep inside the run or a heap exhausted half a minute in. In order:
 * every symbol has a value; every tensor's element count is computed with overflow checks; no tensor the host
 * holds whole exceeds a Java array (a host tensor is one {@code float[]}, or one {@code double[]} for double and
 * int64: {@link DenseTensor#hostBytes}); and the sum of what the host
 * allocates fits the Java heap: the generated inputs, the unsharded reference when validating, the downloaded
 * outputs, and on the CPU backend every rank's local tensors (the simulated devices live in the heap), the
 * buffers the lowering adds included. The sum
 * is an upper bound (deallocation is not counted); the GPU's own memory is checked by the CUDA backend, which
 * names the tensor that does not fit.
 */
final class RunBudget {
    static final String RULE_SYMBOL = "run.symbol-unbound", RULE_SIZE = "run.size", RULE_MEMORY = "run.memory";
    /** The most elements a host tensor holds: the longest Java array. */
    static final long MAX_HOST_ELEMENTS = Integer.MAX_VALUE - 8;

    private RunBudget() {}

    /**
     * One tensor's element counts: unsharded, and on one rank of its mesh (DID axes of extent 1). {@code inFile}:
     * a tensor of the file, else a buffer the lowering adds (the set in front of a resharding op, a permute).
     */
    private record Size(TensorView tv, long global, long local, boolean inFile) {}

    /** Refuses the run of {@code loaded} as {@code plan} asks for it, on a JVM that may use {@code heapBytes}. */
    static void check(LoadedFusion loaded, BackendPlan plan, long heapBytes) throws EngineFailure {
        symbols(loaded);
        List<Size> sizes = sizes(loaded, plan.request().options());
        if (plan.kind() == BackendPlan.Kind.SIM && !plan.request().validate()) return; // shapes only, no data
        arrays(loaded, plan, sizes);
        heap(loaded, plan, sizes, heapBytes);
    }

    /**
     * {@code check}'s part: no tensor, the lowering's buffers included, has more than 2^63 elements ({@code run.size}
     * at its line), decided from the file's extents and {@code --set} where every symbol has a value (else the run
     * refuses the missing value first).
     */
    static void elementCounts(LoadedFusion loaded, LoweringOptions options) throws EngineFailure {
        try {
            symbols(loaded);
        } catch (EngineFailure unbound) {
            return;
        }
        sizes(loaded, options);
    }

    /** No tensor the host holds whole is longer than a Java array: one diagnostic, on the largest such. */
    private static void arrays(LoadedFusion loaded, BackendPlan plan, List<Size> sizes) throws EngineFailure {
        RunRequest r = plan.request();
        boolean cpu = plan.kind() == BackendPlan.Kind.CPU || plan.kind() == BackendPlan.Kind.SIM;
        // one diagnostic, on the largest tensor too large for the host, counting the others
        Size worst = null;
        long worstHeld = 0;
        int over = 0;
        boolean fullReference = fullReference(loaded, r, sizes);
        for (Size s : sizes) {
            boolean validated = fullReference && s.inFile()
                    || r.validate() && loaded.fusion().outputs().contains(s.tv());
            boolean wholeOnHost = validated || loaded.fusion().inputs().contains(s.tv());
            long held = wholeOnHost ? s.global() : cpu ? s.local() : 0;
            if (held <= MAX_HOST_ELEMENTS) continue;
            over++;
            if (held > worstHeld) {
                worst = s;
                worstHeld = held;
            }
        }
        if (worst != null) {
            throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(at(loaded, worst.tv(), RULE_SIZE,
                    (worstHeld == worst.global() ? "" : "a rank's shard of ") + describe(worst.tv(), loaded) + " has "
                            + worstHeld + " elements (" + bytes(saturated(worstHeld, hostBytes(worst.tv())))
                            + "); a host tensor holds at most " + MAX_HOST_ELEMENTS + " (one Java array)"
                            + (over > 1 ? ", and " + (over - 1) + " more tensor" + (over > 2 ? "s are" : " is")
                                    + " as large" : "") + ": lower the extents (--set)")));
        }
    }

    /**
     * Whether validation evaluates the whole reference (every tensor at full size): {@code --validate=full}, or
     * outputs within {@link OutputValidator#FULL_UP_TO}; a larger run is validated by sampling, which holds only
     * the outputs whole.
     */
    private static boolean fullReference(LoadedFusion loaded, RunRequest r, List<Size> sizes) {
        long outputs = 0;
        for (Size s : sizes) if (loaded.fusion().outputs().contains(s.tv())) outputs = saturatedAdd(outputs, s.global());
        return switch (r.validation()) {
            case OFF -> false;
            case FULL -> true;
            case AUTO -> outputs <= OutputValidator.FULL_UP_TO;
        };
    }

    /** Every symbol an axis uses has a value (the file's default or {@code --set}): execution needs them all. */
    private static void symbols(LoadedFusion loaded) throws EngineFailure {
        Map<String, FusionLocator.Location> unbound = new LinkedHashMap<>();
        for (TensorView tv : loaded.tensors()) {
            for (int i = 0; i < tv.rank(); i++) {
                if (!(tv.axis(i).extent() instanceof Extent.Symbolic s)) continue;
                if (loaded.bindings().value(s.name()).isPresent()) continue;
                unbound.putIfAbsent(s.name(), loaded.locator().axis(tv, i));
            }
        }
        if (unbound.isEmpty()) return;
        List<String> names = List.copyOf(unbound.keySet());
        String message = names.size() == 1 ? "symbol " + names.getFirst() + " has no value: give it a default in"
                + " \"symbols\" or run with --set " + names.getFirst() + "=N"
                : "symbols " + String.join(", ", names) + " have no values: give them defaults in \"symbols\" or"
                        + " run with --set " + names.stream().map(n -> n + "=N").collect(Collectors.joining(" --set "));
        throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(Diagnostic.at(loaded.source().file(),
                unbound.get(names.getFirst()), RULE_SYMBOL, message)));
    }

    private static List<Size> sizes(LoadedFusion loaded, LoweringOptions options) throws EngineFailure {
        List<Size> sizes = new ArrayList<>();
        List<TensorView> all = new ArrayList<>(loaded.tensors());
        int fileTensors = all.size();
        all.addAll(loweringBuffers(loaded, options));
        for (int i = 0; i < all.size(); i++) {
            TensorView tv = all.get(i);
            try {
                Map<String, Long> values = loaded.bindings().asMap();
                sizes.add(new Size(tv, elements(RuntimeShapes.global(tv, values)),
                        elements(RuntimeShapes.local(tv, values)), i < fileTensors));
            } catch (ArithmeticException e) {
                throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(at(loaded, tv, RULE_SIZE,
                        describe(tv, loaded) + " has more than 2^63 elements: lower its extents (--set)")));
            }
        }
        return sizes;
    }

    /**
     * The buffers the lowering adds before it splits the program per rank (the fusion passes are the same on every
     * rank): every rank of their mesh allocates them, and at many devices they can outweigh the file's tensors (an
     * allgathered operand is whole on each rank). A fusion the lowering refuses adds none here; the run reports
     * the refusal at its line.
     */
    private static List<TensorView> loweringBuffers(LoadedFusion loaded, LoweringOptions options) {
        List<Pass> fusionPasses = Pipeline.standard().passes().stream()
                .takeWhile(p -> !(p instanceof SegmentPass)).toList();
        Snapshot decomposed;
        try {
            decomposed = new Pipeline(fusionPasses).trace(loaded.fusion(), loaded.bindings().devices(), options,
                    List.of(0)).rank(0).result();
        } catch (LoweringException refused) {
            return List.of();
        }
        if (!(decomposed instanceof Snapshot.OfFusion(var fusion, _))) return List.of();
        Set<Integer> file = loaded.tensors().stream().map(TensorView::id).collect(Collectors.toSet());
        return fusion.tensors().stream().filter(t -> !file.contains(t.id())).toList();
    }

    /** The element count of a shape (from {@link RuntimeShapes}), overflow-checked. */
    private static long elements(long[] shape) {
        long n = 1;
        for (long extent : shape) n = Math.multiplyExact(n, extent);
        return n;
    }

    /** The host's part, summed over what it holds, against the heap; the message names the largest parts. */
    private static void heap(LoadedFusion loaded, BackendPlan plan, List<Size> sizes, long heapBytes)
            throws EngineFailure {
        RunRequest r = plan.request();
        int devices = r.devices();
        boolean fullReference = fullReference(loaded, r, sizes);
        Map<TensorView, Long> parts = new LinkedHashMap<>();
        for (Size s : sizes) {
            TensorView tv = s.tv();
            int ranks = tv.mesh() == null ? devices : tv.mesh().size();
            long n = 0;
            if (loaded.fusion().inputs().contains(tv)) n = saturatedAdd(n, s.global()); // generated whole
            // the full reference computes every tensor; a sampled one gathers the outputs whole, and its whole
            // lines may need an input whole, with its magnitude |x| beside it
            boolean sampledHolds = r.validate() && (loaded.fusion().outputs().contains(tv)
                    || loaded.fusion().inputs().contains(tv));
            if (fullReference && s.inFile() || sampledHolds) n = saturatedAdd(n, s.global());
            if (loaded.fusion().outputs().contains(tv)) n = saturatedAdd(n, saturated(s.local(), ranks)); // downloads
            boolean cpuDevices = plan.kind() == BackendPlan.Kind.CPU || plan.kind() == BackendPlan.Kind.SIM;
            if (cpuDevices) n = saturatedAdd(n, saturated(s.local(), ranks)); // devices (sim: its CPU validation)
            parts.put(tv, saturated(n, hostBytes(tv)));
        }
        long total = parts.values().stream().reduce(0L, RunBudget::saturatedAdd);
        if (total <= heapBytes) return;
        // the diagnostic sits at the largest tensor of the file; the list may name a buffer the lowering adds
        TensorView largest = parts.entrySet().stream().filter(e -> inFile(sizes, e.getKey()))
                .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        String top = parts.entrySet().stream().sorted(Map.Entry.<TensorView, Long>comparingByValue(
                Comparator.reverseOrder())).limit(3).map(e -> describe(e.getKey(), loaded)
                        + " " + bytes(e.getValue())).collect(Collectors.joining(", "));
        RankShare most = heaviestRank(loaded, sizes, devices);
        throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(at(loaded, largest, RULE_MEMORY,
                "the run needs about " + bytes(total) + " of Java heap" + (plan.kind() == BackendPlan.Kind.CPU
                        ? " (the CPU backend keeps all " + devices + " devices' tensors there)" : "")
                        + ", more than the " + bytes(heapBytes) + " this JVM may use; per rank up to "
                        + bytes(most.bytes()) + " (rank " + most.rank() + ")" + "; largest: " + top
                        + "; lower the sizes (--set) or --devices, or raise -Xmx (HIRSTUDIO_JAVA_OPTS)")));
    }

    private static boolean inFile(List<Size> sizes, TensorView tv) {
        return sizes.stream().anyMatch(z -> z.tv() == tv && z.inFile());
    }

    /** What one rank allocates: its shard of every tensor whose mesh holds it (every tensor without a mesh). */
    private record RankShare(int rank, long bytes) {}

    /**
     * The rank that allocates the most, and how much: ranks differ where meshes are parts of the devices. Ranks
     * that hold the same meshes hold the same, so only one rank per distinct set of meshes is summed (1,024
     * devices with a few meshes cost a few sums).
     */
    private static RankShare heaviestRank(LoadedFusion loaded, List<Size> sizes, int devices) {
        Map<List<Boolean>, Integer> firstOfKind = new LinkedHashMap<>();
        for (int rank = 0; rank < devices; rank++) {
            int r = rank;
            firstOfKind.putIfAbsent(sizes.stream().map(z -> z.tv().mesh() == null || z.tv().mesh().contains(r))
                    .toList(), rank);
        }
        RankShare most = new RankShare(0, 0);
        for (var kind : firstOfKind.entrySet()) {
            long n = 0;
            for (int i = 0; i < sizes.size(); i++) {
                if (kind.getKey().get(i)) n = saturatedAdd(n, saturated(sizes.get(i).local(), hostBytes(sizes.get(i).tv())));
            }
            if (n > most.bytes()) most = new RankShare(kind.getValue(), n);
        }
        return most;
    }

    /** Bytes of one host element of {@code tv}: 4 in a float[], 8 for the dtypes held in a double[]. */
    private static long hostBytes(TensorView tv) { return DenseTensor.hostBytes(tv.dtype()); }

    private static Diagnostic at(LoadedFusion loaded, TensorView tv, String rule, String message) {
        return Diagnostic.at(loaded.source().file(), loaded.locator().tensor(tv), rule, message);
    }

    /** {@code tv0 [4, 26843545600] float}: the user's name, the unsharded runtime shape, the dtype. */
    private static String describe(TensorView tv, LoadedFusion loaded) {
        boolean inFile = loaded.tensors().stream().anyMatch(t -> t.id() == tv.id());
        return tv.label() + (inFile ? "" : " (a buffer the lowering adds)") + " "
                + Arrays.toString(RuntimeShapes.global(tv, loaded.bindings().asMap())) + " " + tv.dtype().fileName();
    }

    private static long saturated(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long saturatedAdd(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Bytes for people: {@code 2.0 GiB}, {@code 512.0 MiB}, {@code 12 KiB}. */
    static String bytes(long n) {
        if (n == Long.MAX_VALUE) return "more than 8 EiB";
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? n + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
