package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Sorts one case's result into a {@link Verdict}, with the reason a bad one is bad. */
final class Classifier {
    /** The rule a diagnostic about a file's content ends with: {@code [schema.name]}, {@code [run.output]}. */
    private static final Pattern RULE = Pattern.compile("\\[[a-z][a-z0-9-]*(\\.[a-z0-9-]+)+\\]$");
    /** A Java class or package name, a stack frame, an exception's own name: never shown to a user. */
    private static final Pattern JAVA = Pattern.compile("\\b(java|javax|jdk|sun|com\\.google|org\\.hostir)\\.[a-z]"
            + "|(^|\\n)\\s+at [\\w.$]+\\(|\\b[A-Z]\\w*(Exception|Error)\\b|Exception in thread|Caused by:");
    /** Library wording that says nothing to a user (a decoder's "Input length = 1", Gson's lenient hint). */
    private static final Pattern LIBRARY = Pattern.compile("Input length = \\d|setLenient|setStrictness|"
            + "MalformedJson|Use JsonReader");

    private Classifier() {}

    record Outcome(Verdict verdict, String reason) {}

    /**
     * A pre-existing file changed or a temporary left is a destroyed file whatever the exit; a new file outside the
     * case's outputs is a wrong acceptance when the command succeeded, and something left behind when it refused.
     */
    static Outcome classify(HostileCase c, Path dir, CaseRun r, FileState.Damage damage) throws IOException {
        if (!damage.destroyed().isEmpty()) {
            return new Outcome(Verdict.FILE_DESTROYED, String.join("; ", damage.destroyed()));
        }
        if (!damage.stray().isEmpty()) {
            return new Outcome(accepted(c, r) ? Verdict.WRONG_ACCEPTANCE : Verdict.FILE_DESTROYED,
                    String.join("; ", damage.stray()));
        }
        if (r.hung()) return new Outcome(Verdict.INTERNAL_ERROR, "no answer in time (a hang)");
        if (r.code() == 3 || r.err().contains("internal error")) {
            return new Outcome(Verdict.INTERNAL_ERROR, "exit " + r.code());
        }
        if (accepted(c, r)) return accepted(c, dir, r);
        if (r.code() == 2) return refused(c, dir, r);
        return new Outcome(Verdict.UNCLEAR_ERROR, "exit " + r.code() + (c.expect() == Expect.ACCEPT ? ""
                : ", where a refusal (exit 2, decided up front) was due"));
    }

    /**
     * Exit 0; for {@code diff}, exit 1 too (the programs differ, an answer like any other); for {@code debug}, exit 1
     * with its closing {@code finished:} or {@code stuck:} line (a hand-edited program ran to its end and did not
     * validate, or deadlocked: what a debugger is for, not a refusal it owed).
     */
    static boolean accepted(HostileCase c, CaseRun r) {
        return r.code() == 0 || (r.code() == 1 && (c.command().equals("diff")
                || c.command().equals("debug") && r.out().lines()
                        .anyMatch(l -> l.startsWith("finished: ") || l.startsWith("stuck: "))));
    }

    private static Outcome accepted(HostileCase c, Path dir, CaseRun r) throws IOException {
        if (c.expect() == Expect.REFUSE) {
            return new Outcome(Verdict.WRONG_ACCEPTANCE, "exit " + r.code() + " for an input that must be refused");
        }
        Optional<String> raw = Terminal.rawControl(r.out(), "stdout").or(() -> Terminal.rawControl(r.err(), "stderr"));
        if (raw.isPresent()) return new Outcome(Verdict.WRONG_ACCEPTANCE, raw.get());
        Optional<String> problem = c.check().problem(dir, r);
        return problem.map(p -> new Outcome(Verdict.WRONG_ACCEPTANCE, p))
                .orElse(new Outcome(Verdict.ACCEPTED_CORRECTLY, ""));
    }

    private static Outcome refused(HostileCase c, Path dir, CaseRun r) {
        Optional<String> unclear = unclear(c, dir, r);
        if (unclear.isPresent()) return new Outcome(Verdict.UNCLEAR_ERROR, unclear.get());
        if (c.expect() == Expect.ACCEPT) {
            return new Outcome(Verdict.WRONG_REFUSAL, "refused an input that must be accepted");
        }
        return new Outcome(Verdict.REFUSED_CLEARLY, "");
    }

    /** Why a refusal is not one clear line, if it is not. */
    static Optional<String> unclear(HostileCase c, Path dir, CaseRun r) {
        List<String> lines = r.errLines();
        List<String> errors = lines.stream().filter(l -> l.startsWith("error: ")).toList();
        if (errors.size() != 1) return Optional.of(errors.size() + " error: lines on stderr (one is due)");
        String error = errors.getFirst();
        if (!lines.getFirst().equals(error)) return Optional.of("stderr does not begin with the error: line");
        boolean usage = lines.size() == 2 && lines.get(1).startsWith("usage: hirstudio ");
        if (lines.size() > 1 && !usage) return Optional.of(lines.size() + " lines on stderr (one error: line is due)");
        Optional<String> raw = Terminal.rawControl(r.err(), "stderr").or(() -> Terminal.rawControl(r.out(), "stdout"));
        if (raw.isPresent()) return raw;
        if (JAVA.matcher(r.err()).find() || JAVA.matcher(r.out()).find()) {
            return Optional.of("a Java class, exception or stack frame is shown");
        }
        if (LIBRARY.matcher(error).find()) return Optional.of("a library's wording instead of what and where");
        for (String p : c.mustName().in(dir)) {
            if (!Pattern.compile(p).matcher(error).find()) {
                return Optional.of("the error does not name " + Terminal.shown(p.replace("\\Q", "").replace("\\E", "")));
            }
        }
        if (c.rule() && !RULE.matcher(error).find()) return Optional.of("the error does not end with its [rule]");
        return Optional.empty();
    }
}
