package org.hostir.studio.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileField;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.JsonNode;
import org.hostir.studio.ir.DataType;

/**
 * Hardware profiles read from a file or the engine's built-in ones, checked field by field against
 * {@link ProfileField}: JSON as fusion files are read (strict UTF-8, RFC 8259 strings, duplicate keys refused), and
 * the first problem is one {@code error: FILE:LINE: $.field: what [rule]} line that counts the others. An unknown
 * field is refused by name, and so are a missing one, a wrong type, and a value outside its field's range (with the
 * range).
 */
public final class ProfileFiles {
    public static final String RULE_READ = "profile.read";
    public static final String RULE_FORMAT = "profile.format";
    public static final String RULE_UNKNOWN = "profile.unknown-field";
    public static final String RULE_REQUIRED = "profile.required";
    public static final String RULE_TYPE = "profile.type";
    public static final String RULE_RANGE = "profile.range";
    private static final String CURVE = "gemm.efficiency";

    private ProfileFiles() {}

    /**
     * A built-in profile by name, or else the file at {@code nameOrFile}; a refusal that concerns no place in a
     * profile (no such name or file) names {@code flagFile}, the file whose run asked for it, and {@code --profile}.
     */
    public static HardwareProfile resolve(String nameOrFile, String flagFile) throws EngineFailure {
        if (ProfileJson.BUILT_IN.contains(nameOrFile)) return builtIn(nameOrFile);
        Path path;
        try {
            path = Path.of(nameOrFile);
        } catch (InvalidPathException e) {
            path = null;
        }
        if (nameOrFile.isEmpty()) { // Path.of("") is the working folder: it would be refused as "a folder"
            throw refused(new Diagnostic(flagFile, 0, "--profile", RULE_READ, "--profile needs a built-in profile's"
                    + " name or a file, got an empty string; built-in profiles: "
                    + String.join(", ", ProfileJson.BUILT_IN), new Subject.Setting("--profile")));
        }
        if (path == null || !path.toFile().exists()) {
            throw refused(new Diagnostic(flagFile, 0, "--profile", RULE_READ, "no profile named '"
                    + Texts.printable(nameOrFile) + "' and no such file; built-in profiles: "
                    + String.join(", ", ProfileJson.BUILT_IN), new Subject.Setting("--profile")));
        }
        try {
            return read(FusionReader.text(path, nameOrFile, "profile"), nameOrFile);
        } catch (FusionFileException e) {
            throw refused(e.diagnostics());
        }
    }

    /** One of {@link ProfileJson#BUILT_IN}, from the engine's resources. */
    public static HardwareProfile builtIn(String name) throws EngineFailure {
        try (InputStream in = ProfileJson.class.getResourceAsStream("profiles/" + name + ".json")) {
            if (in == null) throw new IllegalStateException("built-in profile " + name + " is missing from the engine");
            return read(new String(in.readAllBytes(), StandardCharsets.UTF_8), name + ".json");
        } catch (IOException e) {
            throw new IllegalStateException("built-in profile " + name + ": " + e.getMessage(), e);
        }
    }

    /** A profile from its text; {@code label} names it in diagnostics. */
    public static HardwareProfile read(String text, String label) throws EngineFailure {
        JsonNode root;
        try {
            root = JsonNode.parse(text, label);
        } catch (FusionFileException e) {
            throw refused(e.diagnostics());
        }
        if (!(root instanceof JsonNode.JObject top)) {
            throw refused(List.of(at(label, root.line(), "", RULE_TYPE, "a profile is a JSON object, not "
                    + root.kind())));
        }
        Walk walk = new Walk(label);
        walk.object(top, "");
        if (!walk.problems.isEmpty()) throw refused(first(walk.problems));
        return walk.profile();
    }

    private static EngineFailure refused(Diagnostic d) { return refused(List.of(d)); }

    /** One line for a profile, however broken: the first problem, saying how many more there are. */
    private static Diagnostic first(List<Diagnostic> problems) {
        Diagnostic d = problems.getFirst();
        if (problems.size() == 1) return d;
        int more = problems.size() - 1;
        return new Diagnostic(d.file(), d.line(), d.path(), d.rule(), d.message() + " (and " + more + " more"
                + " problem" + (more == 1 ? "" : "s") + " in the profile)", d.subject());
    }

    private static EngineFailure refused(List<Diagnostic> ds) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, ds);
    }

    private static Diagnostic at(String label, int line, String path, String rule, String message) {
        String json = path.isEmpty() ? "$" : "$." + path;
        return new Diagnostic(label, line, json, rule, message, new Subject.Setting("--profile"));
    }

    /** The keys an object at {@code prefix} may have ({@code *}: keys from a field's set). */
    static Set<String> children(String prefix) {
        Set<String> out = new LinkedHashSet<>();
        for (ProfileField f : ProfileField.values()) {
            String p = f.path();
            if (!prefix.isEmpty()) {
                if (!p.startsWith(prefix + ".")) continue;
                p = p.substring(prefix.length() + 1);
            }
            int end = p.length();
            for (char c : new char[] {'.', '['}) if (p.indexOf(c) >= 0) end = Math.min(end, p.indexOf(c));
            out.add(p.substring(0, end));
        }
        return out;
    }

    /** Whether every field at or under {@code path} is optional: then the object may be left out whole. */
    private static boolean optional(String path) {
        boolean any = false;
        for (ProfileField f : ProfileField.values()) {
            if (f.path().equals(path) || f.path().startsWith(path + ".")) {
                if (!f.optional()) return false;
                any = true;
            }
        }
        return any;
    }

    private static Optional<ProfileField> field(String path) {
        for (ProfileField f : ProfileField.values()) if (f.path().equals(path)) return Optional.of(f);
        return Optional.empty();
    }

    private static String join(String prefix, String key) { return prefix.isEmpty() ? key : prefix + "." + key; }

    /** One pass over the tree: the values found by path, and every problem. */
    private static final class Walk {
        final String label;
        final List<Diagnostic> problems = new ArrayList<>();
        final Map<String, Double> numbers = new LinkedHashMap<>();
        final Map<String, String> texts = new LinkedHashMap<>();
        final List<double[]> curve = new ArrayList<>();

        Walk(String label) { this.label = label; }

        void object(JsonNode.JObject o, String prefix) {
            Set<String> keys = children(prefix);
            Optional<ProfileField> any = field(join(prefix, "*"));
            for (JsonNode.Member m : o.members().values()) {
                String path = join(prefix, m.key());
                if (keys.contains(m.key()) && !m.key().equals("*")) {
                    member(path, m);
                } else if (any.isPresent() && any.get().keys().contains(m.key())) {
                    leaf(any.get(), path, m.value(), m.keyLine());
                } else {
                    List<String> known = new ArrayList<>(keys);
                    if (any.isPresent()) {
                        known.remove("*");
                        known.addAll(any.get().keys());
                    }
                    problems.add(at(label, m.keyLine(), path, RULE_UNKNOWN, "unknown field '" + Texts.printable(m.key())
                            + "'" + (prefix.isEmpty() ? "" : " in " + prefix) + "; the fields are "
                            + String.join(", ", known)));
                }
            }
            for (String k : keys) {
                if (!k.equals("*") && !o.members().containsKey(k) && !optional(join(prefix, k))) {
                    problems.add(at(label, o.line(), join(prefix, k), RULE_REQUIRED, "missing field '" + join(prefix, k)
                            + "'"));
                }
            }
        }

        private void member(String path, JsonNode.Member m) {
            Optional<ProfileField> f = field(path);
            if (f.isPresent()) {
                leaf(f.get(), path, m.value(), m.keyLine());
            } else if (path.equals(CURVE)) {
                curve(m.value(), m.keyLine());
            } else if (m.value() instanceof JsonNode.JObject inner) {
                object(inner, path);
            } else {
                problems.add(at(label, m.keyLine(), path, RULE_TYPE, path + " must be an object, not "
                        + m.value().kind()));
            }
        }

        private void leaf(ProfileField f, String path, JsonNode v, int line) {
            if (f.type() == ProfileField.Type.TEXT) {
                if (!(v instanceof JsonNode.JString s)) {
                    problems.add(at(label, line, path, RULE_TYPE, path + " must be a string, not " + v.kind()));
                } else if (f == ProfileField.FORMAT && !s.value().equals(ProfileJson.FORMAT)) {
                    problems.add(at(label, line, path, RULE_FORMAT, "format must be \"" + ProfileJson.FORMAT + "\""));
                } else {
                    texts.put(path, s.value());
                }
                return;
            }
            number(f, path, v, line).ifPresent(d -> numbers.put(path, d));
        }

        private Optional<Double> number(ProfileField f, String path, JsonNode v, int line) {
            if (!(v instanceof JsonNode.JNumber n)) {
                problems.add(at(label, line, path, RULE_TYPE, path + " must be a number, not " + v.kind()));
                return Optional.empty();
            }
            double d = Double.parseDouble(n.text());
            if (!f.accepts(d)) {
                problems.add(at(label, line, path, RULE_RANGE, path + " is " + n.text() + "; it must be "
                        + (f.type() == ProfileField.Type.WHOLE ? "" : "in ") + f.range()));
                return Optional.empty();
            }
            return Optional.of(d);
        }

        private void curve(JsonNode v, int line) {
            if (!(v instanceof JsonNode.JArray points) || points.items().isEmpty()) {
                problems.add(at(label, line, CURVE, RULE_TYPE, CURVE + " must be a list of at least one [size,"
                        + " fraction] point"));
                return;
            }
            for (int i = 0; i < points.items().size(); i++) {
                JsonNode p = points.items().get(i);
                String at = CURVE + "[" + i + "]";
                if (!(p instanceof JsonNode.JArray pair) || pair.items().size() != 2) {
                    problems.add(at(label, p.line(), at, RULE_TYPE, at + " must be a [size, fraction] pair"));
                    continue;
                }
                Optional<Double> size = number(ProfileField.EFFICIENCY_SIZE, at + "[0]", pair.items().get(0), p.line());
                Optional<Double> f = number(ProfileField.EFFICIENCY_FRACTION, at + "[1]", pair.items().get(1),
                        p.line());
                if (size.isEmpty() || f.isEmpty()) continue;
                if (!curve.isEmpty() && size.get() <= curve.getLast()[0]) {
                    problems.add(at(label, p.line(), at + "[0]", RULE_RANGE, "the sizes of " + CURVE + " must"
                            + " increase"));
                }
                curve.add(new double[] {size.get(), f.get()});
            }
        }

        HardwareProfile profile() {
            Map<DataType, Double> peaks = new EnumMap<>(DataType.class);
            Map<String, Double> dispatch = new LinkedHashMap<>();
            numbers.forEach((path, v) -> {
                if (path.startsWith("gemm.peakTflops.")) peaks.put(DataType.fromFileName(tail(path)), v);
                if (path.startsWith("dispatchUs.") && !path.equals(ProfileField.DISPATCH_DEFAULT.path())) {
                    dispatch.put(tail(path), v);
                }
            });
            return new HardwareProfile(texts.get("name"), texts.get("description"), texts.get("source"),
                    (int) n(ProfileField.GPUS_PER_NODE), new HardwareProfile.Gemm(peaks, n(ProfileField.MEMORY_GBPS),
                    n(ProfileField.LAUNCH_US), curve), nvlink(),
                    link(ProfileField.NETWORK_ALPHA, ProfileField.NETWORK_BUS, ProfileField.NETWORK_CALL),
                    link(ProfileField.COPY_ENGINE_ALPHA, ProfileField.COPY_ENGINE_BUS),
                    new HardwareProfile.Contention(n(ProfileField.COMPUTE_SLOWDOWN), n(ProfileField.NCCL_SLOWDOWN)),
                    new HardwareProfile.Dispatch(n(ProfileField.DISPATCH_DEFAULT), dispatch),
                    numbers.containsKey(ProfileField.NCCL_P2P_ALPHA.path())
                    ? link(ProfileField.NCCL_P2P_ALPHA, ProfileField.NCCL_P2P_BUS)
                    : nvlink());
        }

        private HardwareProfile.Link nvlink() {
            return link(ProfileField.NVLINK_ALPHA, ProfileField.NVLINK_BUS, ProfileField.NVLINK_CALL);
        }

        /** A link with its optional per-call latency (0 when the profile gives none). */
        private HardwareProfile.Link link(ProfileField alpha, ProfileField bus, ProfileField call) {
            return new HardwareProfile.Link(n(alpha), n(bus), numbers.getOrDefault(call.path(), 0.0));
        }

        private double n(ProfileField f) { return numbers.get(f.path()); }

        private HardwareProfile.Link link(ProfileField alpha, ProfileField bus) {
            return new HardwareProfile.Link(n(alpha), n(bus));
        }

        private static String tail(String path) { return path.substring(path.lastIndexOf('.') + 1); }
    }
}
