package org.hostir.studio.rules;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a fusion is instantiated with: the number of devices (which sizes {@code "all"} meshes and binds the
 * symbol {@code D}) and the values of other symbols (file defaults overridden by {@code --set}). The IR keeps
 * extents symbolic; values are used for checks that need them (a DID axis's extent against its mesh) and by
 * execution.
 */
public record FusionBindings(int devices, Map<String, Long> symbols) {
    /** The symbol bound to the number of devices. */
    public static final String DEVICES_SYMBOL = "D";
    public static final int DEFAULT_DEVICES = 2;
    /** The largest device count (and mesh size, {@code file.Limits.MAX_DEVICES} is this one). */
    public static final int MAX_DEVICES = 16_384;

    public FusionBindings {
        if (devices < 1 || devices > MAX_DEVICES) {
            throw new IllegalArgumentException("devices must be between 1 and " + MAX_DEVICES);
        }
        symbols = Collections.unmodifiableMap(new LinkedHashMap<>(symbols == null ? Map.of() : symbols));
    }

    public static FusionBindings devices(int devices) { return new FusionBindings(devices, Map.of()); }

    /** The value of a symbol: the device count for D, else the bound value, else empty (unbound). */
    public OptionalLong value(String symbol) {
        if (DEVICES_SYMBOL.equals(symbol)) return OptionalLong.of(devices);
        Long v = symbols.get(symbol);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** Every binding as symbol name -> value, {@code D} included: what execution evaluates extents with. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>(symbols);
        m.put(DEVICES_SYMBOL, (long) devices);
        return m;
    }
}
