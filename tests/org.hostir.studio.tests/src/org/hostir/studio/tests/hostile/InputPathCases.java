package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What every command reads, spelled as nothing it can read: missing, a folder, a FIFO (which must not block), an
 * empty file, a device, a dangling link, a link loop, a name with control characters or NUL, a name too long;
 * and, as controls, the file through a link and through {@code sub/../}. A refusal names the path (or, where the
 * path holds control characters, its folder) and the rule; a missing file says that it is missing.
 */
final class InputPathCases {
    private InputPathCases() {}

    private static final String MISSING = "(?i)(no such file|does not exist|not found|missing)";

    /** A path to read; {@code pattern}: what the refusal must say besides the path, if anything. */
    private record Source(String label, Function<Path, String> path, Expect expect, String pattern) {}

    private static Source s(String label, String relative, Expect expect, String pattern) {
        return new Source(label, dir -> dir + "/" + relative, expect, pattern);
    }

    private static List<Source> sources(String real, String link) {
        return List.of(s("a missing file", "missing.fusion", Expect.REFUSE, MISSING),
                s("a folder", Layout.FOLDER, Expect.REFUSE, null), s("a FIFO", Layout.FIFO, Expect.REFUSE, null),
                s("an empty file", "empty.fusion", Expect.REFUSE, null),
                new Source("/dev/null", dir -> "/dev/null", Expect.REFUSE, null),
                s("a dangling link", Layout.DANGLING, Expect.REFUSE, null),
                s("a link loop", Layout.LOOP, Expect.REFUSE, null),
                s("a missing name with ESC and a newline", "x\u001b[2J\n.fusion", Expect.REFUSE, MISSING),
                s("a name with NUL", "x\u0000.fusion", Expect.REFUSE, null),
                s("a name of 300 characters", "x".repeat(300) + ".fusion", Expect.REFUSE, null),
                s("a link (control: accepted)", link, Expect.ACCEPT, null),
                s("sub/../ (control: accepted)", "sub/../" + real, Expect.ACCEPT, null));
    }

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (FusionCommand command : FusionCommand.values()) {
            for (Source s : sources(Fixtures.FUSION, "alias.fusion")) {
                HostileCase c = HostileCase.of("paths", "reads " + s.label(), s.expect(), layout(s),
                        dir -> command.typed(dir, s.path().apply(dir), List.of())).writing(command.outputs());
                if (CommandLines.heavy(c.command()) && s.expect() != Expect.REFUSE) c = c.asHeavy();
                cases.add(named(c, s));
            }
        }
        for (Source s : sources(Layout.DUMP, "link-dump.txt")) {
            cases.add(named(HostileCase.of("paths", "reads " + s.label(), s.expect(), layout(s),
                    dir -> List.of("dump", s.path().apply(dir))), s));
        }
        for (Source s : sources(Layout.PROFILE, Layout.LINK_PROFILE)) {
            cases.add(named(HostileCase.of("paths", "--profile " + s.label(), s.expect(), layout(s),
                    dir -> List.of("sweep", dir.resolve(Fixtures.FUSION).toString(), "--devices", "2", "--profile",
                            s.path().apply(dir))), s).asHeavy());
            cases.add(named(HostileCase.of("paths", "--profile " + s.label(), s.expect(), layout(s),
                    dir -> {
                        List<String> a = PathCases.run(dir, false);
                        a.set(3, "sim");
                        a.addAll(List.of("--profile", s.path().apply(dir)));
                        return a;
                    }), s).asHeavy());
        }
        return cases;
    }

    private static HostileCase.Setup layout(Source s) {
        return s.label().contains("FIFO") ? dir -> layout(dir, true) : dir -> layout(dir, false);
    }

    private static void layout(Path dir, boolean fifo) throws IOException {
        if (fifo) Layout.withFifo(dir);
        else Layout.standard(dir);
        Fixtures.write(dir, "empty.fusion", new byte[0]);
        Fixtures.write(dir, FusionCommand.PLAIN, Fixtures.fusion());
        Files.createSymbolicLink(dir.resolve("link-dump.txt"), dir.resolve(Layout.DUMP));
        Files.createSymbolicLink(dir.resolve("alias.fusion"), dir.resolve(Fixtures.FUSION));
    }

    /** The refusal names the path (its folder, where the name is hostile) and the rule; a missing file says so. */
    private static HostileCase named(HostileCase c, Source s) {
        HostileCase n = c.naming(dir -> {
            String p = s.path().apply(dir);
            boolean odd = p.chars().anyMatch(ch -> ch < 0x20) || p.length() > 200;
            return List.of(odd ? dir.toString() : p);
        }).withRule();
        return s.pattern() == null ? n : n.matching(dir -> List.of(s.pattern()));
    }
}
