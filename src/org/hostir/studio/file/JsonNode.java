package org.hostir.studio.file;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.FusionFileException;

/**
 * A JSON value with the line it starts on. Gson's own tree forgets positions and silently keeps the last of
 * duplicated keys; diagnostics need both, so the reader builds this tree instead. Other JSON inputs than fusion
 * files (hardware profiles) are read with it too, for the same one-line errors with a line.
 */
public sealed interface JsonNode {

    /**
     * {@code text} as a tree; what is not well-formed JSON (RFC 8259: no raw control characters or lone
     * surrogates in strings, no duplicated keys) is refused with every diagnostic, {@code file} naming it.
     */
    static JsonNode parse(String text, String file) throws FusionFileException {
        return JsonTreeReader.parse(text, file);
    }

    /** 1-based line of the value's first character. */
    int line();

    /** What a message calls this kind of value: "an object", "a string", ... */
    String kind();

    record JObject(Map<String, Member> members, int line) implements JsonNode {
        public JObject {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        }

        public String kind() { return "an object"; }

        public JsonNode get(String key) {
            Member m = members.get(key);
            return m == null ? null : m.value();
        }
    }

    /** An object member; {@code keyLine} is where its key is, which is where a message about it points. */
    record Member(String key, int keyLine, JsonNode value) {}

    record JArray(List<JsonNode> items, int line) implements JsonNode {
        public JArray {
            items = List.copyOf(items);
        }

        public String kind() { return "an array"; }
    }

    record JString(String value, int line) implements JsonNode {
        public String kind() { return "a string"; }
    }

    /** A number, as its literal text: callers decide whether and how it converts. */
    record JNumber(String text, int line) implements JsonNode {
        public String kind() { return "a number"; }
    }

    record JBool(boolean value, int line) implements JsonNode {
        public String kind() { return "a boolean"; }
    }

    record JNull(int line) implements JsonNode {
        public String kind() { return "null"; }
    }
}
