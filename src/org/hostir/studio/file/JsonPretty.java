package org.hostir.studio.file;

import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

/**
 * Pretty-prints a Gson tree the way people write fusion files (and the {@code --save-npy} manifest): a value that
 * fits on one line stays on one line (an axis, a mesh, a whole small tensor), anything longer is broken into one
 * member per line. Gson's own pretty printer puts every array element on its own line, which turns a tensor into a
 * dozen lines. Keys and scalars are Gson's own text, so every string is escaped as RFC 8259 requires.
 */
public final class JsonPretty {
    static final int WIDTH = 120;
    private static final String INDENT = "  ";

    private JsonPretty() {}

    public static String print(JsonElement root) {
        StringBuilder out = new StringBuilder();
        write(root, "", 0, out, true);
        return out.append('\n').toString();
    }

    /** {@code column}: where on its line the value starts (after the indent and its key). */
    private static void write(JsonElement e, String indent, int column, StringBuilder out, boolean forceBreak) {
        if (!e.isJsonArray() && !e.isJsonObject()) {
            out.append(e.toString());
            return;
        }
        String compact = compact(e);
        if (!forceBreak && column + compact.length() + 1 <= WIDTH) {
            out.append(compact);
            return;
        }
        String inner = indent + INDENT;
        if (e instanceof JsonArray a) {
            if (a.size() == 0) { // JsonArray.isEmpty and JsonObject.isEmpty are newer than Gson 2.8
                out.append("[]");
                return;
            }
            out.append("[\n");
            for (int i = 0; i < a.size(); i++) {
                out.append(inner);
                write(a.get(i), inner, inner.length(), out, false);
                out.append(i + 1 < a.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else {
            JsonObject o = e.getAsJsonObject();
            if (o.size() == 0) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            int i = 0;
            for (Map.Entry<String, JsonElement> m : o.entrySet()) {
                String key = key(m.getKey()) + ": ";
                out.append(inner).append(key);
                write(m.getValue(), inner, inner.length() + key.length(), out, false);
                out.append(++i < o.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        }
    }

    static String compact(JsonElement e) {
        if (e instanceof JsonArray a) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < a.size(); i++) {
                if (i > 0) b.append(", ");
                b.append(compact(a.get(i)));
            }
            return b.append(']').toString();
        }
        if (e instanceof JsonObject o) {
            StringBuilder b = new StringBuilder("{");
            int i = 0;
            for (Map.Entry<String, JsonElement> m : o.entrySet()) {
                if (i++ > 0) b.append(", ");
                b.append(key(m.getKey())).append(": ").append(compact(m.getValue()));
            }
            return b.append('}').toString();
        }
        return e.toString();
    }

    private static String key(String k) {
        return new JsonPrimitive(k).toString();
    }
}
