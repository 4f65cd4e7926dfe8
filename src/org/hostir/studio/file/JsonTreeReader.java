package org.hostir.studio.file;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;

/**
 * Reads JSON text into a {@link JsonNode} tree with lines, through Gson's streaming reader. Syntax errors,
 * duplicated keys and exceeded limits become diagnostics; the depth limit is checked before each nested value
 * is entered, so no input can make the recursion deep.
 */
final class JsonTreeReader {
    /** Thrown to unwind once a diagnostic makes reading further pointless. */
    private static final class Stop extends Exception {
        private static final long serialVersionUID = 1L;

        Stop() { super(null, null, false, false); }
    }

    private final String file;
    private final String text;
    private final LineTrackingReader source;
    private final JsonReader json;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private int values;

    private JsonTreeReader(String text, String file) {
        this.file = file;
        this.text = text;
        this.source = new LineTrackingReader(text);
        this.json = new JsonReader(source);
    }

    static JsonNode parse(String text, String file) throws FusionFileException {
        JsonTreeReader r = new JsonTreeReader(text, file);
        JsonNode root = r.document();
        if (!r.diagnostics.isEmpty()) throw new FusionFileException(r.diagnostics);
        return root;
    }

    private JsonNode document() {
        try {
            if (source.isBlank()) fail(Rule.JSON_SYNTAX, "$", "the file is empty (expected a JSON object)");
            JsonNode root = value(1);
            JsonToken after;
            try {
                after = json.peek();
            } catch (IOException e) {
                after = null;
            }
            if (after != JsonToken.END_DOCUMENT) {
                fail(Rule.JSON_SYNTAX, "$", "unexpected content after the end of the top-level value");
            }
            return root;
        } catch (Stop stop) {
            return null;
        } catch (LineTrackingReader.BadCharacter e) {
            diagnostics.add(new Diagnostic(file, e.line, json.getPath(), Rule.JSON_STRING, "column " + e.column + ": "
                    + e.getMessage()));
            return null;
        } catch (EOFException e) {
            diagnostics.add(new Diagnostic(file, source.tokenLine(), json.getPath(), Rule.JSON_SYNTAX,
                    "unexpected end of file"));
            return null;
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            // MalformedJsonException and friends: Gson's message without its position and help links, unless the
            // cause is a missing comma, which Gson reports as an unterminated object or array on the next line
            diagnostics.add(MissingComma.find(text, e.getMessage())
                    .map(m -> new Diagnostic(file, m.line(), json.getPath(), Rule.JSON_SYNTAX, m.message()))
                    .orElseGet(() -> new Diagnostic(file, source.tokenLine(), json.getPath(), Rule.JSON_SYNTAX,
                            syntaxMessage(e.getMessage()))));
            return null;
        }
    }

    private JsonNode value(int depth) throws IOException, Stop {
        JsonToken token = json.peek();
        int line = source.tokenLine();
        if (++values > Limits.MAX_JSON_VALUES) {
            fail(Rule.JSON_LIMIT, json.getPath(), "more than " + Limits.MAX_JSON_VALUES + " JSON values");
        }
        return switch (token) {
            case BEGIN_OBJECT -> object(depth, line);
            case BEGIN_ARRAY -> array(depth, line);
            case STRING -> new JsonNode.JString(json.nextString(), line);
            // the literal text: numbers are converted (and range-checked) by whoever knows what they mean
            case NUMBER -> new JsonNode.JNumber(json.nextString(), line);
            case BOOLEAN -> new JsonNode.JBool(json.nextBoolean(), line);
            case NULL -> {
                json.nextNull();
                yield new JsonNode.JNull(line);
            }
            case END_DOCUMENT -> throw new EOFException();
            default -> throw new IllegalStateException("unexpected " + token);
        };
    }

    private JsonNode object(int depth, int line) throws IOException, Stop {
        checkDepth(depth);
        json.beginObject();
        Map<String, JsonNode.Member> members = new LinkedHashMap<>();
        while (json.hasNext()) {
            json.peek();
            int keyLine = source.tokenLine();
            String key = json.nextName();
            String path = json.getPath();
            JsonNode v = value(depth + 1);
            if (members.containsKey(key)) {
                diagnostics.add(new Diagnostic(file, keyLine, path, Rule.JSON_DUPLICATE_KEY,
                        "duplicate key " + Texts.quote(key) + " (first on line " + members.get(key).keyLine() + ")"));
            } else {
                members.put(key, new JsonNode.Member(key, keyLine, v));
            }
        }
        json.endObject();
        return new JsonNode.JObject(members, line);
    }

    private JsonNode array(int depth, int line) throws IOException, Stop {
        checkDepth(depth);
        json.beginArray();
        List<JsonNode> items = new ArrayList<>();
        while (json.hasNext()) items.add(value(depth + 1));
        json.endArray();
        return new JsonNode.JArray(items, line);
    }

    private void checkDepth(int depth) throws Stop {
        if (depth > Limits.MAX_DEPTH) {
            fail(Rule.JSON_LIMIT, json.getPath(), "nesting deeper than " + Limits.MAX_DEPTH + " levels");
        }
    }

    private void fail(Rule rule, String path, String message) throws Stop {
        diagnostics.add(new Diagnostic(file, source.tokenLine(), path, rule, message));
        throw new Stop();
    }

    /** "Unterminated array at line 1 column 5 path $[0]\nSee ..." becomes "unterminated array". */
    static String syntaxMessage(String gsonMessage) {
        if (gsonMessage == null || gsonMessage.isBlank()) return "malformed JSON";
        String m = gsonMessage;
        int nl = m.indexOf('\n');
        if (nl >= 0) m = m.substring(0, nl);
        int at = m.indexOf(" at line ");
        if (at >= 0) m = m.substring(0, at);
        at = m.indexOf(" at path ");
        if (at >= 0) m = m.substring(0, at);
        if (m.startsWith("Use JsonReader.setLenient") || m.startsWith("Use JsonReader.setStrictness")) {
            return "malformed JSON (comments, unquoted strings, NaN, single quotes and the like are not JSON)";
        }
        m = m.strip();
        if (m.isEmpty()) return "malformed JSON";
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }
}
