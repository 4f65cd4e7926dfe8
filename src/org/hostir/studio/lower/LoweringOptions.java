package org.hostir.studio.lower;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.CommunicatorBackend;

/**
 * The values of the lowering options, each reachable from {@code --option KEY=VALUE}. The options themselves are
 * declared by the passes that read them ({@link LoweringOption}) and collected by {@link Pipeline#options()};
 * this class only holds values, so a new option needs no change here. Immutable.
 */
public final class LoweringOptions {
    /** The options of every generation's pipeline, in the order {@code asMap}, help text and controls use. */
    public static final List<LoweringOption<?>> DECLARED = Pipeline.declaredOptions();
    public static final LoweringOptions DEFAULTS = new LoweringOptions(DECLARED, Map.of());

    private final List<LoweringOption<?>> declared;
    private final Map<String, Object> values;

    private LoweringOptions(List<LoweringOption<?>> declared, Map<String, Object> values) {
        this.declared = List.copyOf(declared);
        Map<String, Object> all = new LinkedHashMap<>();
        for (LoweringOption<?> o : this.declared) all.put(o.key(), values.getOrDefault(o.key(), o.defaultValue()));
        applySchedule(all, values);
        this.values = Collections.unmodifiableMap(all);
    }

    /**
     * The AG+GEMM schedule's option values over {@code all}; an option {@code given} beside it that the schedule
     * sets otherwise is refused, naming both.
     */
    private static void applySchedule(Map<String, Object> all, Map<String, Object> given) {
        Object chosen = all.get(StreamParallelTypePass.AG_GEMM_SCHEDULE.key());
        if (!(chosen instanceof AgGemmSchedule schedule)) return;
        for (var e : schedule.settings().entrySet()) {
            LoweringOption<?> o = e.getKey();
            if (!all.containsKey(o.key())) continue;
            Object own = given.get(o.key());
            if (own != null && !own.equals(e.getValue())) {
                throw new LoweringException("option " + o.key(), "option", o.key() + "=" + o.format(own)
                        + " contradicts agGemmSchedule=" + schedule + ", which sets " + o.key() + "="
                        + o.format(e.getValue()) + " (give one or the other)");
            }
            all.put(o.key(), e.getValue());
        }
    }

    /** Options from {@code KEY=VALUE} pairs, starting from the defaults; unknown keys and bad values are errors. */
    public static LoweringOptions parse(Map<String, String> pairs) { return parse(DECLARED, pairs); }

    /** The same for another pipeline's options ({@link Pipeline#options()}). */
    public static LoweringOptions parse(List<LoweringOption<?>> declared, Map<String, String> pairs) {
        Map<String, LoweringOption<?>> byKey = new LinkedHashMap<>();
        for (LoweringOption<?> o : declared) byKey.put(o.key(), o);
        Map<String, Object> values = new LinkedHashMap<>();
        for (var e : pairs.entrySet()) {
            LoweringOption<?> o = byKey.get(e.getKey());
            if (o == null) {
                throw new LoweringException("option " + e.getKey(), "option",
                        "unknown option (known: " + String.join(", ", byKey.keySet()) + ")");
            }
            values.put(o.key(), o.parse(e.getValue()));
        }
        return new LoweringOptions(declared, values);
    }

    /** The value of {@code option}; its default when these options do not declare it. */
    public <T> T get(LoweringOption<T> option) {
        Object v = values.get(option.key());
        return v == null ? option.defaultValue() : option.cast(v);
    }

    /** These options with {@code option} set to {@code value}. */
    public <T> LoweringOptions with(LoweringOption<T> option, T value) {
        if (!values.containsKey(option.key())) throw new IllegalArgumentException("undeclared option " + option.key());
        Map<String, Object> changed = new LinkedHashMap<>(values);
        LoweringOption<AgGemmSchedule> scheduleOption = StreamParallelTypePass.AG_GEMM_SCHEDULE;
        if (option.equals(scheduleOption) && value != AgGemmSchedule.OPTIONS) {
            // a new schedule replaces what the old one set; choosing none keeps the values as they are
            for (AgGemmSchedule s : AgGemmSchedule.values()) s.settings().keySet().forEach(o -> changed.remove(o.key()));
        } else if (values.get(scheduleOption.key()) instanceof AgGemmSchedule s && s.settings().containsKey(option)
                && !s.settings().get(option).equals(value)) {
            changed.put(scheduleOption.key(), AgGemmSchedule.OPTIONS); // an option changed by hand: no schedule now
        }
        changed.put(option.key(), option.cast(value));
        return new LoweringOptions(declared, changed);
    }

    /** The declared options, in order. */
    public List<LoweringOption<?>> declared() { return declared; }

    /** Every option as {@code KEY -> VALUE} text, in declaration order; {@link #parse} reads it back. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (LoweringOption<?> o : declared) m.put(o.key(), o.format(values.get(o.key())));
        return m;
    }

    // Typed accessors for the options other layers read (the runner, the CLI's backend policy).

    /** Worker streams the evaluator cycles through ({@code StreamIdx % n}). */
    public int numberOfStreams() { return get(StreamParallelTypePass.NUMBER_OF_STREAMS); }

    /** Who carries communications: NCCL, or CUDA copy-engine peer copies. */
    public CommunicatorBackend backend() { return get(ConvertToCommunicationPass.BACKEND); }

    /** How a DIDx-to-Stream set is lowered. */
    public AllgatherLowering allgather() { return get(StreamParallelTypePass.ALLGATHER); }

    public boolean offsetStreamIndexingByRank() { return get(StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK); }

    public boolean insertDeallocations() { return get(InsertDeallocationsPass.INSERT_DEALLOCATIONS); }

    public boolean forwardLocalShard() { return get(ForwardLocalShardPass.FORWARD_LOCAL_SHARD); }

    /** The AG+GEMM schedule chosen as one option ({@code options}: the separate options decide). */
    public AgGemmSchedule agGemmSchedule() { return get(StreamParallelTypePass.AG_GEMM_SCHEDULE); }

    /** The nvFuser revision the lowering and its printing follow ({@code --nvfuser}). */
    public NvFuserGeneration nvFuser() { return get(ValidatePass.NVFUSER); }

    @Override
    public boolean equals(Object o) { return o instanceof LoweringOptions other && values.equals(other.values); }

    @Override
    public int hashCode() { return values.hashCode(); }

    @Override
    public String toString() { return "LoweringOptions" + asMap(); }
}
