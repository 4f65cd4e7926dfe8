package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The base command line of each command on the standard files ({@link Layout}), quick to run, with the flags under
 * test added: a flag of the base line that is under test is left out of it, so that a case gives it exactly as
 * the case says.
 */
final class CommandLines {
    private static final Set<String> SWITCHES = Set.of("--python", "--cpp", "--passes", "--diff", "--json",
            "--report", "--validate", "--no-validate", "--force");
    private static final Set<String> REPEATABLE = Set.of("--set", "--option", "--vary");

    private CommandLines() {}

    static List<String> base(String command, Path dir) {
        String f = dir.resolve(Fixtures.FUSION).toString(), dump = dir.resolve(Layout.DUMP).toString();
        return new ArrayList<>(switch (command) {
            case "check" -> List.of("check", f);
            case "lower" -> List.of("lower", f, "--devices", "2");
            case "export --python" -> List.of("export", "--python", f);
            case "export --cpp" -> List.of("export", "--cpp", f);
            case "diff" -> List.of("diff", f, dir.resolve(FusionCommand.PLAIN).toString(), "--devices", "2");
            case "diff dump" -> List.of("diff", dump, f);
            case "diff dumps" -> List.of("diff", dump, dump);
            case "dump" -> List.of("dump", dump);
            case "run" -> List.of("run", f, "--backend", "cpu", "--iterations", "1", "--warmup", "0");
            case "run sim" -> List.of("run", f, "--backend", "sim", "--profile", "h100x8-nvlink", "--iterations", "1",
                    "--warmup", "0");
            case "sweep" -> List.of("sweep", f, "--devices", "2", "--profile", "h100x8-nvlink");
            default -> throw new IllegalArgumentException(command);
        });
    }

    /** {@code base} without the flags {@code given} sets (and their values), then {@code given}. */
    static List<String> with(List<String> base, List<String> given) {
        List<String> flags = given.stream().filter(a -> a.startsWith("--")).map(a -> a.split("=", 2)[0]).toList();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < base.size(); i++) {
            String a = base.get(i);
            if (flags.contains(a) && !REPEATABLE.contains(a)) {
                if (!SWITCHES.contains(a)) i++; // and its value
                continue;
            }
            out.add(base.get(i));
        }
        out.addAll(given);
        return out;
    }

    static boolean heavy(String command) { return command.startsWith("run") || command.equals("sweep"); }

    /** A case of {@code command} with {@code given} added; a refusal must name {@code named}. */
    static HostileCase on(String command, String family, String label, Expect expect, List<String> given,
                          String... named) {
        HostileCase c = HostileCase.of(family, label, expect, CommandLines::files,
                dir -> with(base(command, dir), given)).naming(dir -> List.of(named));
        return heavy(command) && expect != Expect.REFUSE ? c.asHeavy() : c;
    }

    static void files(Path dir) throws IOException {
        Fixtures.fusionFile(dir);
        Fixtures.write(dir, FusionCommand.PLAIN, Fixtures.fusion());
        Fixtures.write(dir, Layout.DUMP, Fixtures.dump());
        Fixtures.write(dir, Layout.PROFILE, Fixtures.profile());
    }
}
