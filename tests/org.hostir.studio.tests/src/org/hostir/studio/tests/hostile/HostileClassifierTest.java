package org.hostir.studio.tests.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.tests.hostile.ExportSkeleton.Language;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite's own judges can fail: each class of {@link Verdict} is reached by an output made for it, and the export
 * skeleton tells a string or comment that holds user text from one that lets it out.
 */
class HostileClassifierTest {
    private static final Path DIR = Path.of("/case");
    private static final String FILE = "/case/f.fusion";

    private static HostileCase refuse() {
        return HostileCase.of("t", "t", Expect.REFUSE, d -> { }, d -> List.of("check", FILE))
                .naming(d -> List.of(FILE)).withRule();
    }

    private static Verdict verdict(HostileCase c, int code, String out, String err) throws IOException {
        CaseRun r = new CaseRun(List.of(), code, out, err, false);
        return Classifier.classify(c, DIR, r, new FileState.Damage(List.of(), List.of())).verdict();
    }

    @Test
    void eachOutputFindsItsClass() throws IOException {
        HostileCase c = refuse();
        String clear = "error: " + FILE + ":4: $.description: raw U+001B [json.control]\n";
        assertEquals(Verdict.REFUSED_CLEARLY, verdict(c, 2, "", clear));
        assertEquals(Verdict.REFUSED_CLEARLY, verdict(c, 2, "", clear + "usage: hirstudio check FILE\n"));
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", clear + clear), "two error lines");
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", clear + "\tat org.x.Y.m(Y.java:1)\n"));
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", "error: " + FILE + ": Input length = 1 [dump.read]\n"));
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", "error: " + FILE + ": java.io.EOFException [a.b]\n"));
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", "error: " + FILE + ": bad \u001b[2J [a.b]\n"));
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", "error: somewhere: bad [a.b]\n"), "names no file");
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 2, "", "error: " + FILE + ": bad\n"), "no rule");
        assertEquals(Verdict.UNCLEAR_ERROR, verdict(c, 1, "", clear), "exit 1 where a refusal was due");
        assertEquals(Verdict.INTERNAL_ERROR, verdict(c, 3, "", "internal error: java.lang.StackOverflowError\n"));
        assertEquals(Verdict.WRONG_ACCEPTANCE, verdict(c, 0, "ok\n", ""));
        HostileCase accept = new HostileCase("t", "t", Expect.ACCEPT, d -> { }, d -> List.of("check", FILE),
                d -> List.of(), false, List.of(), HostileCase.NO_CHECK, false);
        assertEquals(Verdict.ACCEPTED_CORRECTLY, verdict(accept, 0, "fusion f\\u001b\n", ""));
        assertEquals(Verdict.WRONG_ACCEPTANCE, verdict(accept, 0, "fusion f\u001b[31m\n", ""));
        assertEquals(Verdict.WRONG_ACCEPTANCE, verdict(accept, 0, "fusion f\u009b\n", ""), "C1 too");
        assertEquals(Verdict.WRONG_REFUSAL, verdict(accept, 2, "", clear));
    }

    @Test
    void filesChangedOrLeftBehindAreFound(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("f.fusion"), "{}");
        Files.writeString(dir.resolve("old.json"), "old");
        FileState before = FileState.of(dir);
        Files.writeString(dir.resolve("f.fusion"), "{ }");
        Files.writeString(dir.resolve(".old.json.1234.tmp"), "half");
        Files.writeString(dir.resolve("old.json"), "new");
        FileState.Damage d = before.damage(FileState.of(dir), List.of("old.json"));
        assertEquals(2, d.destroyed().size(), d.toString());
        Files.writeString(dir.resolve("stray.json"), "x");
        assertEquals(List.of("stray.json was written, and it is no output of this case"),
                before.damage(FileState.of(dir), List.of("old.json", ".old.json.1234.tmp", "f.fusion")).stray());
    }

    @Test
    void theSkeletonSeesUserTextThatBecameCode() {
        String plain = "# f (f.fusion)\nimport torch\nx = \"f\"\n";
        assertEquals(ExportSkeleton.of(plain, Language.PYTHON),
                ExportSkeleton.of("# pwn\\nimport os (f.fusion)\nimport torch\nx = \"a\\\"b\"  # c\n", Language.PYTHON));
        assertNotEquals(ExportSkeleton.of(plain, Language.PYTHON),
                ExportSkeleton.of("# pwn\nimport os\n# (f.fusion)\nimport torch\nx = \"f\"\n", Language.PYTHON));
        assertNotEquals(ExportSkeleton.of(plain, Language.PYTHON),
                ExportSkeleton.of("# f\nimport torch\nx = \"a\"; import os; \"\"\n", Language.PYTHON));
        assertNotEquals(ExportSkeleton.of(plain, Language.PYTHON),
                ExportSkeleton.of("# f\nimport torch\nx = \"a\nb\"\n", Language.PYTHON), "a string left open");
        String cpp = "// f (f.fusion)\nauto x = \"f\"; /* d */\n";
        assertEquals(ExportSkeleton.of(cpp, Language.CPP),
                ExportSkeleton.of("// f\\u000a (f.fusion)\nauto x = R\"(a\"b)\"; /* d * / */\n", Language.CPP));
        assertNotEquals(ExportSkeleton.of(cpp, Language.CPP),
                ExportSkeleton.of("// f\nsystem(\"id\");\nauto x = \"f\"; /* d */\n", Language.CPP));
        assertNotEquals(ExportSkeleton.of(cpp, Language.CPP),
                ExportSkeleton.of("// f\nauto x = \"f\"; /* d */ int y; /* */\n", Language.CPP), "a comment closed");
        assertNotEquals(ExportSkeleton.of(cpp, Language.CPP),
                ExportSkeleton.of("// f \\\nauto x = \"f\"; /* d */\n", Language.CPP), "a backslash joins lines");
    }
}
