package org.hostir.studio.tests.hostile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Hostile paths (issue 31 item 2 and issue 16): what a run writes ({@code --trace}, {@code --save-npy}) spelled as
 * the fusion, the profile, a link, a folder, a FIFO, a read-only file, another output of the same run; and what
 * every command reads spelled as nothing a file can be. Whatever the spelling and {@code --force}, an input is never
 * an output, two outputs never share a path, a read-only file is never replaced.
 */
final class PathCases {
    private PathCases() {}

    /** A path to write; {@code outputs}: what an accepted run may create or replace there. */
    private record Target(String label, Function<Path, String> path, Expect plain, Expect forced, boolean simOnly,
                          String... outputs) {}

    private static Target t(String label, String relative, Expect plain, Expect forced, String... outputs) {
        return new Target(label, dir -> dir + "/" + relative, plain, forced, false, outputs);
    }

    private static final Expect A = Expect.ACCEPT, R = Expect.REFUSE, E = Expect.EITHER;

    private static List<Target> traces() {
        return List.of(t("the fusion", Fixtures.FUSION, R, R), t("the fusion as sub/../", "sub/../f.fusion", R, R),
                t("the fusion as ./", "./f.fusion", R, R), t("the fusion as //", "/f.fusion", R, R),
                t("a link to the fusion", Layout.LINK_FUSION, R, R),
                new Target("the profile being read", dir -> dir + "/" + Layout.PROFILE, R, R, true),
                new Target("a link to the profile", dir -> dir + "/" + Layout.LINK_PROFILE, R, R, true),
                t("a file of the user's", Layout.FOREIGN, R, A, Layout.FOREIGN),
                t("a link to a file of the user's", Layout.LINK_FOREIGN, R, E, Layout.LINK_FOREIGN, Layout.FOREIGN),
                t("a read-only file of the user's", Layout.READ_ONLY, R, R),
                t("a read-only trace of this tool", Layout.OURS_READ_ONLY, R, R),
                t("a trace of this tool", Layout.OURS, A, A, Layout.OURS), t("a new file", "new.json", A, A, "new.json"),
                t("a folder", Layout.FOLDER, R, R), t("a FIFO", Layout.FIFO, R, R),
                new Target("an empty path", dir -> "", R, R, false),
                new Target("/dev/null", dir -> "/dev/null", R, R, false),
                t("a file below a plain file", "plain.txt/t.json", R, R),
                t("a file in a missing folder", "missing/t.json", E, E, "missing"),
                t("a dangling link", Layout.DANGLING, E, E, Layout.DANGLING, "nowhere.json"),
                t("a name with ESC and a newline", "t\u001b[31m\n.json", E, E, "t\u001b[31m\n.json"),
                t("a name with NUL", "t\u0000.json", R, R), t("a name of 300 characters", "x".repeat(300), R, R),
                // a file of an earlier run (no --save-npy now): --force may replace it as any file of the user's
                t("a tensor an earlier run saved", Layout.SAVED + "/out_out.npy", R, A, Layout.SAVED + "/out_out.npy"),
                t("the saved folder", Layout.SAVED, R, R), t("a dump the user keeps", Layout.DUMP, R, A, Layout.DUMP));
    }

    private static List<Target> folders() {
        return List.of(t("the fusion", Fixtures.FUSION, R, R), t("the fusion as sub/../", "sub/../f.fusion", R, R),
                new Target("the profile being read", dir -> dir + "/" + Layout.PROFILE, R, R, true),
                t("a file of the user's", Layout.FOREIGN, R, R), t("a FIFO", Layout.FIFO, R, R),
                new Target("an empty path", dir -> "", R, R, false),
                t("a folder with a file of the user's", Layout.FOREIGN_FOLDER, R, A, Layout.FOREIGN_FOLDER),
                t("the folder this tool saved", Layout.SAVED, A, A, Layout.SAVED),
                t("a new folder", "fresh", A, A, "fresh"),
                t("the fusion's own folder", ".", A, A, "in_in.npy", "out_out.npy", "manifest.json"),
                t("a trace of this tool", Layout.OURS, R, R));
    }

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (boolean sim : new boolean[] {false, true}) {
            for (boolean force : new boolean[] {false, true}) {
                for (Target t : traces()) cases.add(output("--trace", t, sim, force));
                for (Target t : folders()) cases.add(output("--save-npy", t, sim, force));
            }
            cases.addAll(collisions(sim));
        }
        cases.addAll(InputPathCases.all());
        return cases;
    }

    private static HostileCase output(String flag, Target t, boolean sim, boolean force) {
        Expect expect = force ? t.forced() : t.plain();
        boolean userFile = t.simOnly() && !sim && flag.equals("--trace"); // without --profile: a file of the user's
        if (userFile) expect = force ? Expect.ACCEPT : Expect.REFUSE;
        List<String> more = new ArrayList<>(List.of(flag));
        HostileCase c = HostileCase.of("paths", flag + " " + t.label() + (force ? " --force" : ""), expect,
                t.label().contains("FIFO") ? Layout::withFifo : Layout::standard, dir -> {
                    List<String> a = run(dir, sim);
                    a.add(flag);
                    a.add(t.path().apply(dir));
                    if (force) a.add("--force");
                    return a;
                }).naming(dir -> more).withRule();
        List<String> outputs = new ArrayList<>(List.of(t.outputs()));
        if (userFile) outputs.addAll(List.of(Layout.PROFILE, Layout.LINK_PROFILE)); // the link, or through it
        c = c.writing(outputs.toArray(String[]::new));
        return expect == Expect.REFUSE ? c : c.asHeavy();
    }

    /** Two outputs of one run on one path: never, with or without --force. */
    private static List<HostileCase> collisions(boolean sim) {
        List<HostileCase> cases = new ArrayList<>();
        record Pair(String label, String trace, String npy) {}
        for (Pair p : List.of(new Pair("the trace as the saved manifest", "fresh/manifest.json", "fresh"),
                new Pair("the trace as a saved tensor", "fresh/out_out.npy", "fresh"),
                new Pair("the trace as the saved folder", "fresh", "fresh"),
                new Pair("the trace as this tool's saved manifest", Layout.SAVED + "/manifest.json", Layout.SAVED),
                new Pair("the trace as this tool's saved tensor", Layout.SAVED + "/in_in.npy", Layout.SAVED))) {
            for (boolean force : new boolean[] {false, true}) {
                cases.add(HostileCase.of("paths", "two outputs: " + p.label() + (force ? " --force" : ""),
                        Expect.REFUSE, Layout::standard, dir -> {
                            List<String> a = run(dir, sim);
                            a.addAll(List.of("--trace", dir + "/" + p.trace(), "--save-npy", dir + "/" + p.npy()));
                            if (force) a.add("--force");
                            return a;
                        }).naming(dir -> List.of("--trace")).withRule());
            }
        }
        return cases;
    }

    /** {@code run} of the layout's fusion, for one iteration, on the CPU or simulated with the layout's profile. */
    static List<String> run(Path dir, boolean sim) {
        List<String> a = new ArrayList<>(List.of("run", dir.resolve(Fixtures.FUSION).toString(), "--backend",
                sim ? "sim" : "cpu", "--iterations", "1", "--warmup", "0"));
        if (sim) a.addAll(List.of("--profile", dir.resolve(Layout.PROFILE).toString()));
        return a;
    }
}
