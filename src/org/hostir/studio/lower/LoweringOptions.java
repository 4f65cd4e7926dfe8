package org.hostir.studio.lower;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.ir.host.CommunicatorBackend;

/**
 * Every knob of the lowering pipeline, each reachable from {@code --option KEY=VALUE}.
 *
 * @param numberOfStreams            worker streams the evaluator cycles through ({@code StreamIdx % n})
 * @param backend                    who carries communications: NCCL, or CUDA copy-engine peer copies
 * @param allgather                  how a DIDx-to-Stream set is lowered
 * @param offsetStreamIndexingByRank iterate slices from the own rank, {@code (rank + i) % D}, so the local
 *                                   slice is computed while the first transfer is in flight
 * @param insertDeallocations        free each intermediate after its last use (off in the seeds' pipeline)
 * @param forwardLocalShard          the P2P allgather's owning iteration computes on its shard directly instead
 *                                   of copying it into a gathered buffer nothing else reads (off in the seeds')
 */
public record LoweringOptions(int numberOfStreams, CommunicatorBackend backend, AllgatherLowering allgather,
                              boolean offsetStreamIndexingByRank, boolean insertDeallocations,
                              boolean forwardLocalShard) {
    public static final LoweringOptions DEFAULTS =
            new LoweringOptions(4, CommunicatorBackend.NCCL, AllgatherLowering.P2P, false, false, false);

    public LoweringOptions(int numberOfStreams, CommunicatorBackend backend, AllgatherLowering allgather,
                           boolean offsetStreamIndexingByRank, boolean insertDeallocations) {
        this(numberOfStreams, backend, allgather, offsetStreamIndexingByRank, insertDeallocations, false);
    }

    public LoweringOptions {
        if (numberOfStreams < 1 || numberOfStreams > 1024) {
            throw new IllegalArgumentException("numberOfStreams must be in 1..1024");
        }
    }

    /** Options from {@code KEY=VALUE} pairs, starting from the defaults; unknown keys and bad values are errors. */
    public static LoweringOptions parse(Map<String, String> pairs) {
        LoweringOptions o = DEFAULTS;
        for (var e : pairs.entrySet()) {
            String v = e.getValue().trim();
            o = switch (e.getKey()) {
                case "numberOfStreams" -> new LoweringOptions(intIn(e.getKey(), v), o.backend, o.allgather,
                        o.offsetStreamIndexingByRank, o.insertDeallocations, o.forwardLocalShard);
                case "backend" -> new LoweringOptions(o.numberOfStreams, enumOf(CommunicatorBackend.class,
                        e.getKey(), v), o.allgather, o.offsetStreamIndexingByRank, o.insertDeallocations,
                        o.forwardLocalShard);
                case "allgather" -> new LoweringOptions(o.numberOfStreams, o.backend,
                        enumOf(AllgatherLowering.class, e.getKey(), v), o.offsetStreamIndexingByRank,
                        o.insertDeallocations, o.forwardLocalShard);
                case "offsetStreamIndexingByRank" -> new LoweringOptions(o.numberOfStreams, o.backend, o.allgather,
                        bool(e.getKey(), v), o.insertDeallocations, o.forwardLocalShard);
                case "insertDeallocations" -> new LoweringOptions(o.numberOfStreams, o.backend, o.allgather,
                        o.offsetStreamIndexingByRank, bool(e.getKey(), v), o.forwardLocalShard);
                case "forwardLocalShard" -> new LoweringOptions(o.numberOfStreams, o.backend, o.allgather,
                        o.offsetStreamIndexingByRank, o.insertDeallocations, bool(e.getKey(), v));
                default -> throw bad(e.getKey(), "unknown option (known: " + String.join(", ",
                        DEFAULTS.asMap().keySet()) + ")");
            };
        }
        return o;
    }

    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("numberOfStreams", Integer.toString(numberOfStreams));
        m.put("backend", backend.name().toLowerCase(Locale.ROOT));
        m.put("allgather", allgather.name().toLowerCase(Locale.ROOT));
        m.put("offsetStreamIndexingByRank", Boolean.toString(offsetStreamIndexingByRank));
        m.put("insertDeallocations", Boolean.toString(insertDeallocations));
        m.put("forwardLocalShard", Boolean.toString(forwardLocalShard));
        return m;
    }

    private static int intIn(String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= 1024) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw bad(key, "expected an integer in 1..1024, got '" + v + "'");
    }

    private static boolean bool(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw bad(key, "expected true or false, got '" + v + "'");
        };
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, String key, String v) {
        for (E c : type.getEnumConstants()) {
            if (c.name().equalsIgnoreCase(v)) return c;
        }
        throw bad(key, "unknown value '" + v + "'");
    }

    private static LoweringException bad(String key, String what) {
        return new LoweringException("option " + key, "option", what);
    }
}
