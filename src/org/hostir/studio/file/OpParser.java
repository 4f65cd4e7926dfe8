package org.hostir.studio.file;

import static org.hostir.studio.file.JsonFields.field;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.op.OpAttribute;

/** Parses the {@code ops} entries of a fusion file: op name, inputs, output and the op's attributes. */
final class OpParser {
    static final Set<String> FIELDS = Set.of("op", "inputs", "output", "axes", "flags", "permute");

    private final JsonFields f;

    OpParser(JsonFields fields) {
        this.f = fields;
    }

    OpSpec op(JsonNode n, String path) {
        JsonNode.JObject o = f.object(n, path);
        if (o == null) return null;
        f.allowOnly(o, path, FIELDS, "an op");
        int before = f.diagnostics.size();
        OpKind kind = kind(o, path);
        List<String> inputs = null;
        JsonNode inputsNode = f.require(o, path, "inputs");
        if (inputsNode != null) inputs = names(inputsNode, field(path, "inputs"));
        JsonNode outputNode = f.require(o, path, "output");
        String output = outputNode == null ? null : f.string(outputNode, field(path, "output"));
        if (kind != null && inputs != null && (inputs.size() < kind.minInputs() || inputs.size() > kind.maxInputs())) {
            String expected = kind.minInputs() == kind.maxInputs() ? Integer.toString(kind.minInputs())
                    : kind.minInputs() + " or " + kind.maxInputs();
            f.report(inputsNode, field(path, "inputs"), Rule.SCHEMA_ARITY, kind.fileName() + " takes " + expected
                    + " input" + (kind.maxInputs() == 1 ? "" : "s") + ", got " + inputs.size());
        }
        List<Integer> axes = positions(o, path, "axes", kind);
        List<Boolean> flags = flags(o, path, kind);
        List<Integer> permute = positions(o, path, "permute", kind);
        if (f.diagnostics.size() > before) return null;
        return new OpSpec(kind, inputs, output, axes, flags, permute);
    }

    private OpKind kind(JsonNode.JObject o, String path) {
        JsonNode n = f.require(o, path, "op");
        String s = n == null ? null : f.string(n, field(path, "op"));
        if (s == null) return null;
        OpKind kind = OpKind.fromFileName(s).orElse(null);
        if (kind == null) {
            f.report(n, field(path, "op"), Rule.SCHEMA_ENUM, "unknown op " + Texts.quote(s) + " (expected "
                    + OpKind.fileNames() + ")");
        }
        return kind;
    }

    /** axes for the reductions (required, non-empty), permute for set (optional): axis positions. */
    private List<Integer> positions(JsonNode.JObject o, String path, String key, OpKind kind) {
        JsonNode n = present(o, path, key, kind);
        if (n == null) return List.of();
        JsonNode.JArray a = f.array(n, field(path, key), Limits.MAX_AXES);
        if (a == null) return List.of();
        List<Long> values = f.items(a, field(path, key),
                (item, p) -> f.integer(item, p, 0, Limits.MAX_AXES - 1, "an axis position"));
        if (kind != null && required(key, kind) && a.items().isEmpty()) {
            f.report(n, field(path, key), Rule.SCHEMA_ATTRIBUTE, kind.fileName() + " needs at least one axis");
        }
        return values.stream().map(Long::intValue).toList();
    }

    private List<Boolean> flags(JsonNode.JObject o, String path, OpKind kind) {
        JsonNode n = present(o, path, "flags", kind);
        if (n == null) return List.of();
        JsonNode.JArray a = f.array(n, field(path, "flags"), Limits.MAX_AXES);
        return a == null ? List.of() : f.items(a, field(path, "flags"), f::bool);
    }

    /** The attribute's node when it is present and belongs to the op; reports a missing or foreign one. */
    private JsonNode present(JsonNode.JObject o, String path, String key, OpKind kind) {
        JsonNode n = o.get(key);
        if (kind == null) return n;
        if (n == null) {
            if (required(key, kind)) {
                f.report(o, path, Rule.SCHEMA_ATTRIBUTE, kind.fileName() + " needs '" + key + "'");
            }
            return null;
        }
        if (!belongs(key, kind)) {
            f.report(n, field(path, key), Rule.SCHEMA_ATTRIBUTE, "'" + key + "' is not an attribute of "
                    + kind.fileName() + " (" + owners(key) + ")");
            return null;
        }
        return n;
    }

    private static boolean belongs(String key, OpKind kind) { return kind.takes(attribute(key)); }

    private static boolean required(String key, OpKind kind) {
        return attribute(key).required() && belongs(key, kind);
    }

    private static String owners(String key) {
        OpAttribute a = attribute(key);
        return "only " + a.owners() + (a == OpAttribute.AXES ? " (" + OpKind.reductionNames() + ")" : "")
                + (a == OpAttribute.AXES || a == OpAttribute.FLAGS ? " have it" : " has it");
    }

    private static OpAttribute attribute(String key) {
        return Arrays.stream(OpAttribute.values()).filter(a -> a.key().equals(key)).findFirst().orElseThrow();
    }

    /** A list of tensor names (whether they exist is checked later, against the whole file). */
    List<String> names(JsonNode n, String path) {
        JsonNode.JArray a = f.array(n, path, Limits.MAX_TENSORS);
        if (a == null) return null;
        List<String> names = f.items(a, path, f::string);
        return names.size() == a.items().size() ? names : null;
    }
}
