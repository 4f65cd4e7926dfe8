package org.hostir.studio.tests.hostile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.tests.hostile.ExportSkeleton.Language;

/**
 * Every command that reads a fusion file, each with the flags that make it do all its work quickly (one iteration,
 * a trace and saved tensors where it writes them) and the checks its accepted result must pass.
 */
enum FusionCommand {
    CHECK, LOWER, LOWER_JSON, RUN_CPU, RUN_SIM, EXPORT_PYTHON, EXPORT_CPP, DIFF, SWEEP, DEBUG;

    static final String TRACE = "t.json", NPY = "npy", PLAIN = "plain.fusion";

    /** The command line on {@code fusion} (a path in {@code dir}), then {@code more}. */
    List<String> args(Path dir, String fusion, List<String> more) {
        return typed(dir, dir.resolve(fusion).toString(), more);
    }

    /** The command line on {@code f} exactly as typed (an empty or odd path stays as it is). */
    List<String> typed(Path dir, String f, List<String> more) {
        List<String> a = new ArrayList<>(switch (this) {
            case CHECK -> List.of("check", f);
            case LOWER -> List.of("lower", f);
            case LOWER_JSON -> List.of("lower", f, "--json");
            case RUN_CPU -> List.of("run", f, "--backend", "cpu", "--iterations", "1", "--warmup", "0", "--trace",
                    dir.resolve(TRACE).toString(), "--save-npy", dir.resolve(NPY).toString());
            case RUN_SIM -> List.of("run", f, "--backend", "sim", "--profile", "h100x8-nvlink", "--iterations", "1",
                    "--warmup", "0", "--trace", dir.resolve(TRACE).toString());
            case EXPORT_PYTHON -> List.of("export", "--python", f);
            case EXPORT_CPP -> List.of("export", "--cpp", f);
            case DIFF -> List.of("diff", f, dir.resolve(PLAIN).toString());
            case SWEEP -> List.of("sweep", f, "--devices", "2", "--profile", "h100x8-nvlink");
            // a stop at every node prints each rank's live tensors: the fusion's texts reach the terminal there too
            case DEBUG -> List.of("debug", f, "--break", "all", "--max-stops", "2");
        });
        a.addAll(more);
        return a;
    }

    List<String> args(Path dir, String fusion) { return args(dir, fusion, List.of()); }

    /** What an accepted run of it writes. */
    String[] outputs() {
        return switch (this) {
            case RUN_CPU -> new String[] {TRACE, NPY};
            case RUN_SIM -> new String[] {TRACE};
            case CHECK, LOWER, LOWER_JSON, EXPORT_PYTHON, EXPORT_CPP, DIFF, SWEEP, DEBUG -> new String[0];
        };
    }

    /** What its accepted result must satisfy besides a clean terminal. */
    HostileCase.AcceptCheck check() {
        return switch (this) {
            case RUN_CPU -> both(AcceptChecks.wholeTrace(TRACE), AcceptChecks.manifestIsJson(NPY));
            case RUN_SIM -> both(AcceptChecks.wholeTrace(TRACE), AcceptChecks.SANE_FIGURES);
            case SWEEP -> AcceptChecks.SANE_FIGURES;
            case EXPORT_PYTHON -> AcceptChecks.exportIsThePlainOne(Language.PYTHON);
            case EXPORT_CPP -> AcceptChecks.exportIsThePlainOne(Language.CPP);
            case LOWER_JSON -> AcceptChecks.STDOUT_IS_JSON;
            case CHECK, LOWER, DIFF, DEBUG -> HostileCase.NO_CHECK;
        };
    }

    /**
     * Sampled in CI: every command but {@code check} and the exports, which see each variant of a file in CI (they
     * read it as the others do, and the exports are where user text becomes code).
     */
    boolean heavy() {
        return switch (this) {
            case RUN_CPU, RUN_SIM, SWEEP, LOWER, LOWER_JSON, DIFF, DEBUG -> true;
            case CHECK, EXPORT_PYTHON, EXPORT_CPP -> false;
        };
    }

    /** A case of this command on the fusion {@code text}, with its outputs, checks and weight. */
    HostileCase on(String family, String label, Expect expect, byte[] text) {
        HostileCase c = HostileCase.of(family, label, expect, dir -> {
            Fixtures.write(dir, Fixtures.FUSION, text);
            if (this == DIFF) Fixtures.write(dir, PLAIN, Fixtures.fusion());
        }, dir -> args(dir, Fixtures.FUSION)).writing(outputs()).checking(check());
        return heavy() ? c.asHeavy() : c;
    }

    private static HostileCase.AcceptCheck both(HostileCase.AcceptCheck a, HostileCase.AcceptCheck b) {
        return (dir, run) -> {
            var first = a.problem(dir, run);
            return first.isPresent() ? first : b.problem(dir, run);
        };
    }
}
