package org.hostir.studio.file;

import static org.hostir.studio.file.JsonFields.field;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;

/**
 * Turns a {@link JsonNode} tree into a {@link FusionDocument}, checking what the JSON Schema says: required and
 * unknown fields, JSON types, enum values, ranges. Names are resolved later ({@link FusionConverter}).
 */
final class DocumentParser {
    static final Set<String> FIELDS = Set.of("format", "name", "description", "symbols", "tensors", "ops",
            "inputs", "outputs", "layout");

    private final JsonFields f;
    private final TensorParser tensors;
    private final OpParser ops;

    private DocumentParser(String file) {
        f = new JsonFields(file);
        tensors = new TensorParser(f);
        ops = new OpParser(f);
    }

    static FusionDocument parse(JsonNode root, String file) throws FusionFileException {
        DocumentParser p = new DocumentParser(file);
        FusionDocument doc = p.document(root);
        if (!p.f.diagnostics.isEmpty()) throw new FusionFileException(p.f.diagnostics);
        return doc;
    }

    private FusionDocument document(JsonNode root) {
        JsonNode.JObject o = f.object(root, "$");
        if (o == null) return null;
        JsonNode format = f.require(o, "$", "format");
        if (format != null) {
            String s = f.string(format, "$.format");
            if (s != null && !s.equals(FusionDocument.FORMAT) && !s.equals(FusionDocument.FORMAT_2)) {
                // another format version: everything else would be noise
                f.report(format, "$.format", Rule.SCHEMA_FORMAT, "unsupported format " + Texts.quote(s)
                        + " (expected \"" + FusionDocument.FORMAT + "\" or \"" + FusionDocument.FORMAT_2 + "\")");
                return null;
            }
            tensors.setVersion2(FusionDocument.FORMAT_2.equals(s));
        }
        f.allowOnly(o, "$", FIELDS, "a fusion");
        String name = null;
        JsonNode nameNode = f.require(o, "$", "name");
        if (nameNode != null) name = fusionName(nameNode);
        String description = null;
        if (o.get("description") != null) description = description(o.get("description"));
        Map<String, Long> symbols = o.get("symbols") == null ? Map.of() : symbols(o.get("symbols"));
        List<TensorSpec> tensorList = list(o, "tensors", Limits.MAX_TENSORS, tensors::tensor);
        List<OpSpec> opList = list(o, "ops", Limits.MAX_OPS, ops::op);
        List<String> inputs = nameList(o, "inputs");
        List<String> outputs = nameList(o, "outputs");
        // a blank fusion (no tensors, no ops: File > New's empty template, issue 35) reads as a document, so that
        // the editor can draw it; loading it still refuses it for lack of an output (graph.no-outputs)
        boolean blank = tensorList != null && tensorList.isEmpty() && opList != null && opList.isEmpty();
        if (outputs != null && outputs.isEmpty() && !blank) {
            f.report(o.get("outputs"), "$.outputs", Rule.SCHEMA_RANGE, "a fusion needs at least one output");
        }
        JsonObject layout = null;
        if (o.get("layout") != null) {
            JsonNode.JObject l = f.object(o.get("layout"), "$.layout");
            if (l != null) layout = toGson(l).getAsJsonObject();
        }
        if (!f.diagnostics.isEmpty()) return null;
        return new FusionDocument(name, description, symbols, tensorList, opList, inputs, outputs, layout);
    }

    /**
     * The fusion's name is an identifier, as nvFuser's test names are: it reaches the exports' generated code, the
     * traces' and saved outputs' metadata, the terminal and the editor, where free text would need care everywhere.
     */
    private String fusionName(JsonNode n) {
        String s = f.string(n, "$.name");
        if (s != null && !JsonFields.isIdentifier(s)) {
            f.report(n, "$.name", Rule.SCHEMA_NAME, "invalid fusion name " + Texts.quote(s) + " (a letter or '_',"
                    + " then letters, digits or '_', at most " + Limits.MAX_NAME_LENGTH + ", as nvFuser names tests)");
            return null;
        }
        return s;
    }

    private String description(JsonNode n) {
        String s = f.string(n, "$.description");
        if (s != null && s.length() > Limits.MAX_DESCRIPTION_LENGTH) {
            f.report(n, "$.description", Rule.SCHEMA_RANGE, "a description has at most "
                    + Limits.MAX_DESCRIPTION_LENGTH + " characters");
            return null;
        }
        return s;
    }

    private Map<String, Long> symbols(JsonNode n) {
        JsonNode.JObject o = f.object(n, "$.symbols");
        if (o == null) return Map.of();
        Map<String, Long> symbols = new LinkedHashMap<>();
        for (JsonNode.Member m : o.members().values()) {
            String path = field("$.symbols", m.key());
            if (!JsonFields.isIdentifier(m.key())) {
                f.report(m.keyLine(), path, Rule.SCHEMA_NAME, "invalid symbol name " + Texts.quote(m.key()));
                continue;
            }
            if (m.key().equals("D")) {
                f.report(m.keyLine(), path, Rule.SYMBOL_RESERVED,
                        "the symbol D is the number of devices, bound by --devices; remove its default");
                continue;
            }
            Long v = f.integer(m.value(), path, 1, Limits.MAX_EXTENT, "a symbol value");
            if (v != null) symbols.put(m.key(), v);
        }
        return symbols;
    }

    private <T> List<T> list(JsonNode.JObject o, String key, int max, JsonFields.ItemParser<T> parser) {
        JsonNode n = f.require(o, "$", key);
        if (n == null) return null;
        JsonNode.JArray a = f.array(n, field("$", key), max);
        return a == null ? null : f.items(a, field("$", key), parser);
    }

    private List<String> nameList(JsonNode.JObject o, String key) {
        JsonNode n = f.require(o, "$", key);
        return n == null ? null : ops.names(n, field("$", key));
    }

    /** The layout goes back into Gson's tree verbatim: the engine never looks inside. */
    static JsonElement toGson(JsonNode n) {
        return switch (n) {
            case JsonNode.JObject o -> {
                JsonObject g = new JsonObject();
                o.members().values().forEach(m -> g.add(m.key(), toGson(m.value())));
                yield g;
            }
            case JsonNode.JArray a -> {
                JsonArray g = new JsonArray();
                a.items().forEach(i -> g.add(toGson(i)));
                yield g;
            }
            case JsonNode.JString s -> new JsonPrimitive(s.value());
            // the literal as written (Gson keeps the text of a number it parses)
            case JsonNode.JNumber num -> JsonParser.parseString(num.text());
            case JsonNode.JBool b -> new JsonPrimitive(b.value());
            case JsonNode.JNull x -> JsonNull.INSTANCE;
        };
    }
}
