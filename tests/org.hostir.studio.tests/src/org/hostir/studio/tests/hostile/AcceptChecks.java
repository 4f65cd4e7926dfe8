package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.hostile.ExportSkeleton.Language;
import org.hostir.studio.trace.TraceFormatCheck;

/** What an accepted result must satisfy beyond its exit code and a clean terminal. */
final class AcceptChecks {
    private static final Map<Language, List<String>> PLAIN = new EnumMap<>(Language.class);
    /** A number of more than 30 digits (a 1e300 latency's span) is no answer. */
    private static final Pattern ABSURD = Pattern.compile("\\d{31,}");

    private AcceptChecks() {}

    /** The export's statements are those of the same fusion with a plain name and description. */
    static HostileCase.AcceptCheck exportIsThePlainOne(Language language) {
        return (dir, run) -> {
            List<String> plain = plain(language);
            List<String> got = ExportSkeleton.of(run.out(), language);
            if (got.equals(plain)) return Optional.empty();
            int i = 0;
            while (i < Math.min(got.size(), plain.size()) && got.get(i).equals(plain.get(i))) i++;
            String extra = i < got.size() ? got.get(i) : "(nothing)";
            return Optional.of("the " + language.name().toLowerCase() + " export has code the fusion does not"
                    + " make: " + Terminal.shown(extra));
        };
    }

    private static synchronized List<String> plain(Language language) throws IOException {
        if (!PLAIN.containsKey(language)) {
            Path dir = Files.createTempDirectory("hostile-plain");
            Path f = Fixtures.fusionFile(dir);
            CliRun r = CliRun.of("export", language == Language.CPP ? "--cpp" : "--python", f.toString());
            Files.delete(f);
            Files.delete(dir);
            if (r.code() != 0) throw new IllegalStateException("the plain fusion does not export: " + r.err());
            PLAIN.put(language, ExportSkeleton.of(r.out(), language));
        }
        return PLAIN.get(language);
    }

    /** The trace at {@code name} passes the Chrome trace format check. */
    static HostileCase.AcceptCheck wholeTrace(String name) {
        return (dir, run) -> {
            Path t = dir.resolve(name);
            if (!Files.isRegularFile(t)) return Optional.of("no trace at " + name);
            List<TraceFormatCheck.Violation> v = TraceFormatCheck.check(t);
            return v.isEmpty() ? Optional.empty() : Optional.of("the trace is broken: " + v.getFirst());
        };
    }

    /** {@code folder/manifest.json} is JSON as RFC 8259 says (no raw control characters, nothing after it). */
    static HostileCase.AcceptCheck manifestIsJson(String folder) {
        return (dir, run) -> {
            Path m = dir.resolve(folder).resolve("manifest.json");
            if (!Files.isRegularFile(m)) return Optional.of("no " + folder + "/manifest.json");
            try (Reader r = Files.newBufferedReader(m)) {
                return notJson(r).map(p -> "manifest.json " + p);
            }
        };
    }

    /** What {@code lower --json} prints is JSON as RFC 8259 says. */
    static final HostileCase.AcceptCheck STDOUT_IS_JSON = (dir, run) ->
            notJson(new StringReader(run.out())).map(p -> "stdout " + p);

    private static Optional<String> notJson(Reader text) {
        try (JsonReader in = new JsonReader(text)) {
            in.setStrictness(Strictness.STRICT);
            JsonParser.parseReader(in);
            if (in.peek() != JsonToken.END_DOCUMENT) return Optional.of("has text after the JSON");
            return Optional.empty();
        } catch (JsonParseException | IOException | IllegalStateException e) {
            return Optional.of("is not JSON: " + Terminal.shown(String.valueOf(e.getMessage())));
        }
    }

    /** No figure of absurd length on stdout (what a 1e300 latency printed). */
    static final HostileCase.AcceptCheck SANE_FIGURES = (dir, run) -> {
        Matcher m = ABSURD.matcher(run.out());
        return m.find() ? Optional.of("a " + m.group().length() + "-digit figure is printed") : Optional.empty();
    };
}
