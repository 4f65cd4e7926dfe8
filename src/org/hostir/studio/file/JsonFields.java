package org.hostir.studio.file;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;

/**
 * Typed access to a {@link JsonNode} tree for the document parsers: each accessor either returns the value or
 * records a diagnostic (with the JSON path and line) and returns null, so parsing goes on and reports every
 * problem it can in one pass.
 */
final class JsonFields {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    final String file;
    final List<Diagnostic> diagnostics = new ArrayList<>();

    JsonFields(String file) {
        this.file = file;
    }

    void report(JsonNode at, String path, Rule rule, String message) {
        diagnostics.add(new Diagnostic(file, at == null ? 0 : at.line(), path, rule, message));
    }

    void report(int line, String path, Rule rule, String message) {
        diagnostics.add(new Diagnostic(file, line, path, rule, message));
    }

    static String field(String path, String key) { return path + "." + key; }

    static String index(String path, int i) { return path + "[" + i + "]"; }

    JsonNode.JObject object(JsonNode n, String path) {
        if (n instanceof JsonNode.JObject o) return o;
        typeError(n, path, "an object");
        return null;
    }

    JsonNode.JArray array(JsonNode n, String path, int maxItems) {
        if (!(n instanceof JsonNode.JArray a)) {
            typeError(n, path, "an array");
            return null;
        }
        if (a.items().size() > maxItems) {
            report(a, path, Rule.SCHEMA_RANGE, "more than " + maxItems + " items");
            return null;
        }
        return a;
    }

    String string(JsonNode n, String path) {
        if (n instanceof JsonNode.JString s) return s.value();
        typeError(n, path, "a string");
        return null;
    }

    /** A string that names a tensor or a symbol. */
    String identifier(JsonNode n, String path) {
        String s = string(n, path);
        if (s == null) return null;
        if (s.length() > Limits.MAX_NAME_LENGTH || !IDENTIFIER.matcher(s).matches()) {
            report(n, path, Rule.SCHEMA_NAME, "invalid name " + Texts.quote(s)
                    + " (a letter or '_', then letters, digits or '_', at most " + Limits.MAX_NAME_LENGTH + ")");
            return null;
        }
        return s;
    }

    static boolean isIdentifier(String s) {
        return s.length() <= Limits.MAX_NAME_LENGTH && IDENTIFIER.matcher(s).matches();
    }

    /** An integer in [min, max]; fractions, exponents and out-of-range values are diagnostics. */
    Long integer(JsonNode n, String path, long min, long max, String what) {
        if (!(n instanceof JsonNode.JNumber num)) {
            typeError(n, path, "an integer");
            return null;
        }
        String text = num.text();
        if (!INTEGER.matcher(text).matches()) {
            report(n, path, Rule.SCHEMA_RANGE, what + " must be an integer, got " + Texts.quote(text));
            return null;
        }
        long value;
        // at most 19 digits fit a long; longer literals are out of range whatever they are
        String digits = text.startsWith("-") ? text.substring(1) : text;
        if (digits.length() > 18) {
            value = text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        } else {
            value = Long.parseLong(text);
        }
        if (value < min || value > max) {
            report(n, path, Rule.SCHEMA_RANGE, what + " must be between " + min + " and " + max + ", got "
                    + Texts.quote(text));
            return null;
        }
        return value;
    }

    Boolean bool(JsonNode n, String path) {
        if (n instanceof JsonNode.JBool b) return b.value();
        typeError(n, path, "a boolean");
        return null;
    }

    /** The member {@code key}, or a schema.required diagnostic at the object's line. */
    JsonNode require(JsonNode.JObject o, String path, String key) {
        JsonNode v = o.get(key);
        if (v == null) report(o, path, Rule.SCHEMA_REQUIRED, "missing required field '" + key + "'");
        return v;
    }

    void allowOnly(JsonNode.JObject o, String path, Set<String> allowed, String what) {
        for (JsonNode.Member m : o.members().values()) {
            if (!allowed.contains(m.key())) {
                report(m.keyLine(), field(path, m.key()), Rule.SCHEMA_UNKNOWN_FIELD, "unknown field "
                        + Texts.quote(m.key()) + " in " + what + " (expected one of " + String.join(", ",
                                allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private void typeError(JsonNode n, String path, String expected) {
        report(n, path, Rule.SCHEMA_TYPE, "expected " + expected + ", got " + n.kind());
    }

    /** Items of a JSON array parsed one by one; a null from the item parser drops that item. */
    interface ItemParser<T> {
        T parse(JsonNode item, String itemPath);
    }

    <T> List<T> items(JsonNode.JArray a, String path, ItemParser<T> parser) {
        List<T> out = new ArrayList<>();
        for (int i = 0; i < a.items().size(); i++) {
            T t = parser.parse(a.items().get(i), index(path, i));
            if (t != null) out.add(t);
        }
        return out;
    }
}
