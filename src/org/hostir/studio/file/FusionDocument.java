package org.hostir.studio.file;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import com.google.gson.JsonObject;

import org.hostir.studio.rules.FusionBindings;

/**
 * A {@code hostir-fusion/1} file as data: immutable, equal when the files mean the same, and written back by
 * {@link FusionWriter} so that {@code read(write(doc)).equals(doc)}.
 *
 * @param description may be null (left out of the file)
 * @param symbols     default values of symbolic extents, in file order ({@code --set} overrides them)
 * @param layout      the editor's layout section, kept verbatim and ignored by the engine; null when absent
 */
public record FusionDocument(String name, String description, Map<String, Long> symbols, List<TensorSpec> tensors,
                             List<OpSpec> ops, List<String> inputs, List<String> outputs, JsonObject layout) {
    public static final String FORMAT = "hostir-fusion/1";
    /** The format with loop domains (splits, merges, reorders, parallel types on loop axes); reads version 1. */
    public static final String FORMAT_2 = "hostir-fusion/2";

    public FusionDocument {
        Objects.requireNonNull(name, "name");
        symbols = Collections.unmodifiableMap(new LinkedHashMap<>(symbols == null ? Map.of() : symbols));
        tensors = List.copyOf(tensors);
        ops = List.copyOf(ops);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        // JsonObject is mutable: keep a private copy so the record stays immutable
        layout = layout == null ? null : layout.deepCopy();
    }

    /**
     * A fusion name made from free text (a new file's name, {@code my-fusion} gives {@code my_fusion}): what the
     * reader accepts, an identifier of at most {@link Limits#MAX_NAME_LENGTH} characters.
     */
    public static String nameFor(String text) {
        String name = text.replaceAll("[^A-Za-z0-9_]", "_");
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) name = "_" + name;
        return name.substring(0, Math.min(name.length(), Limits.MAX_NAME_LENGTH));
    }

    /** A copy, so that callers cannot change this document's layout. */
    @Override
    public JsonObject layout() { return layout == null ? null : layout.deepCopy(); }

    /** Every symbol the document mentions: defaults, extents, and D (the device count). */
    public Set<String> symbolNames() {
        Set<String> names = new LinkedHashSet<>(symbols.keySet());
        names.add(FusionBindings.DEVICES_SYMBOL);
        for (TensorSpec t : tensors) {
            for (AxisSpec a : t.axes()) {
                if (a.extent() instanceof ExtentSpec.Symbol(String symbol)) names.add(symbol);
            }
        }
        return names;
    }

    /** What this document is instantiated with: its defaults, overridden by {@code overrides}, on {@code devices}. */
    public FusionBindings bindings(int devices, Map<String, Long> overrides) {
        Map<String, Long> values = new LinkedHashMap<>(symbols);
        values.putAll(overrides);
        values.remove(FusionBindings.DEVICES_SYMBOL);
        return new FusionBindings(devices, values);
    }

    /**
     * The format this document is written in: version 1 while no tensor has loop steps, so a version 1 file is
     * written back as version 1 (never upgraded behind the user's back); version 2 once one has.
     */
    public String format() {
        return tensors.stream().anyMatch(TensorSpec::needsVersion2) ? FORMAT_2 : FORMAT;
    }

    public Optional<TensorSpec> tensor(String tensorName) {
        return tensors.stream().filter(t -> t.name().equals(tensorName)).findFirst();
    }

    public FusionDocument withLayout(JsonObject newLayout) {
        return new FusionDocument(name, description, symbols, tensors, ops, inputs, outputs, newLayout);
    }
}
