package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One generated hostile input: the files it starts from, the command line, what must happen (from issue 31's
 * Deliver text) and what a clear refusal must name.
 *
 * @param family   the kind of hostility (names, paths, numbers, flags, profiles, dumps, json, signals)
 * @param label    what is hostile about it, for the report
 * @param mustName what the {@code error:} line must contain, each a regular expression (a path, a flag)
 * @param rule     whether the refusal is about a file's content and must end with its {@code [rule]}
 * @param outputs  paths (relative to the case's folder) an accepted run may create or replace
 * @param check    what an accepted result must also satisfy (the export's statements, a written JSON)
 * @param heavy    a run, a simulation or a second spelling of a case: sampled in CI, all of them with
 *                 {@code -Dhostile.full=true}
 */
record HostileCase(String family, String label, Expect expect, Setup setup, Args args, Args mustName, boolean rule,
                   List<String> outputs, AcceptCheck check, boolean heavy) {

    /** Writes the case's files into its (empty) folder. */
    @FunctionalInterface
    interface Setup {
        void prepare(Path dir) throws IOException;
    }

    /** Command-line arguments (after {@code hirstudio}) or required patterns, with paths in the case's folder. */
    @FunctionalInterface
    interface Args {
        List<String> in(Path dir);
    }

    /** Why an accepted result is wrong, if it is. */
    @FunctionalInterface
    interface AcceptCheck {
        Optional<String> problem(Path dir, CaseRun run) throws IOException;
    }

    static final AcceptCheck NO_CHECK = (dir, run) -> Optional.empty();

    HostileCase {
        outputs = List.copyOf(outputs);
    }

    static HostileCase of(String family, String label, Expect expect, Setup setup, Args args) {
        return new HostileCase(family, label, expect, setup, args, dir -> List.of(), false, List.of(), NO_CHECK,
                false);
    }

    /** The refusal must contain these texts literally (a path, a flag), besides what it must already. */
    HostileCase naming(Args literals) {
        return matching(dir -> literals.in(dir).stream().map(Pattern::quote).toList());
    }

    /** The refusal must match these regular expressions. */
    HostileCase matching(Args patterns) {
        Args both = dir -> {
            List<String> all = new ArrayList<>(mustName.in(dir));
            all.addAll(patterns.in(dir));
            return all;
        };
        return new HostileCase(family, label, expect, setup, args, both, rule, outputs, check, heavy);
    }

    HostileCase withRule() {
        return new HostileCase(family, label, expect, setup, args, mustName, true, outputs, check, heavy);
    }

    HostileCase writing(String... paths) {
        return new HostileCase(family, label, expect, setup, args, mustName, rule, List.of(paths), check, heavy);
    }

    HostileCase checking(AcceptCheck more) {
        AcceptCheck both = (dir, run) -> {
            Optional<String> first = check.problem(dir, run);
            return first.isPresent() ? first : more.problem(dir, run);
        };
        return new HostileCase(family, label, expect, setup, args, mustName, rule, outputs, both, heavy);
    }

    HostileCase asHeavy() {
        return new HostileCase(family, label, expect, setup, args, mustName, rule, outputs, check, true);
    }

    /** The command as the report groups it: the subcommand, with run's backend and export's language. */
    String command() {
        List<String> a = args.in(Path.of("/case"));
        if (a.isEmpty()) return "(none)";
        String name = a.getFirst();
        return switch (name) {
            case "run" -> a.contains("sim") ? "run --backend sim" : "run --backend cpu";
            case "export" -> a.contains("--cpp") ? "export --cpp" : "export --python";
            default -> name;
        };
    }

    String id() { return family + " / " + command() + " / " + label; }
}
