package org.hostir.studio.ui.timeline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;

/**
 * What "Run on CPU" runs with: the device count, the lowering options as {@code hirstudio lower --option} pairs
 * and symbol bindings that override the fusion's own. Written and read as one line of {@code key=value} words
 * ({@code devices=2 numberOfStreams=4 N=1024}): {@code devices} is the device count, a lowering option's name is
 * that option, any other name binds a symbol. Free of SWT, so the dialog and the tests share it.
 */
public record RunSettings(int devices, Map<String, String> options, Map<String, Long> symbols) {
    public static final RunSettings DEFAULTS = new RunSettings(CpuRun.DEFAULT_DEVICES, Map.of(), Map.of());
    /** The option names {@link LoweringOptions#parse(Map)} knows. */
    static final List<String> OPTION_NAMES = List.copyOf(LoweringOptions.DEFAULTS.asMap().keySet());

    public RunSettings {
        if (devices < 1) throw new IllegalArgumentException("devices must be at least 1, not " + devices);
        options = Map.copyOf(options);
        symbols = Map.copyOf(symbols);
    }

    /** Parses {@code key=value} words; a bad word is an IllegalArgumentException with a one-line message. */
    public static RunSettings parse(String line) {
        int devices = CpuRun.DEFAULT_DEVICES;
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, Long> symbols = new LinkedHashMap<>();
        for (String word : line.trim().split("[\\s,]+")) {
            if (word.isEmpty()) continue;
            int eq = word.indexOf('=');
            if (eq <= 0 || eq == word.length() - 1) {
                throw new IllegalArgumentException("'" + word + "' is not key=value");
            }
            String key = word.substring(0, eq), value = word.substring(eq + 1);
            if (key.equals("devices")) {
                devices = integer(word, value);
                if (devices < 1 || devices > 64) throw new IllegalArgumentException("devices must be 1..64: " + word);
            } else if (OPTION_NAMES.contains(key)) {
                options.put(key, value);
            } else if (Character.isJavaIdentifierStart(key.charAt(0))) {
                symbols.put(key, (long) integer(word, value));
            } else {
                throw new IllegalArgumentException("'" + key + "' is no option or symbol name");
            }
        }
        RunSettings settings = new RunSettings(devices, options, symbols);
        settings.loweringOptions(); // a bad option value fails here, as a one-line message
        return settings;
    }

    private static int integer(String word, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + word + "': " + value + " is not a whole number");
        }
    }

    /** The lowering options (the defaults where none is given); a bad value is an IllegalArgumentException. */
    public LoweringOptions loweringOptions() {
        try {
            return LoweringOptions.parse(options);
        } catch (LoweringException e) {
            throw new IllegalArgumentException(String.join("; ", e.errors().stream().map(err -> err.format())
                    .toList()));
        }
    }

    /** The one-line form {@link #parse(String)} reads back. */
    public String format() {
        StringBuilder s = new StringBuilder("devices=").append(devices);
        options.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> s.append(' ').append(e.getKey()).append('=').append(e.getValue()));
        symbols.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> s.append(' ').append(e.getKey()).append('=').append(e.getValue()));
        return s.toString();
    }

    /** For the view's description: "2 devices, numberOfStreams=2". */
    public String describe() {
        return describeDevices() + (describeOptions().isEmpty() ? "" : ", " + describeOptions());
    }

    /** {@code 4 devices}: the first part of {@link #describe}. */
    public String describeDevices() { return devices + (devices == 1 ? " device" : " devices"); }

    /** The rest of {@link #describe}: the settings other than the devices, empty when there are none. */
    public String describeOptions() { return format().substring(("devices=" + devices).length()).trim(); }
}
