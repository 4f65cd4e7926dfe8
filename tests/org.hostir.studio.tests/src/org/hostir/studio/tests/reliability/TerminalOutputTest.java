package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.cli.Main;
import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No control character from a file, a path or an argument reaches the terminal raw (issue 31): each command is run
 * with hostile text where it prints user text, and the bytes it printed are checked, both streams: valid UTF-8
 * whose only controls are the line breaks and tabs of the output's own layout; {@code error:} and
 * {@code warning:} lines stay one line each; the hostile text shows escaped (ESC as backslash, u, 001b).
 */
class TerminalOutputTest {
    /** A title-setting OSC with BEL, a screen clear, NUL, a C1 CSI, DEL, the line separator and a bidi override. */
    static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u0000x\u009b31m\u007f\u2028\u202e!";
    /** What a file name can hold on Linux (no NUL; ASCII, whatever the JVM's file-name encoding). */
    static final String HOSTILE_PATH = "e\u001b[31mvil\u0007\u007f\r";

    record Printed(int code, String out, String err) {}

    static Printed run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main().run(SeedGeneration.pin(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Printed(code, safe(out.toByteArray()), safe(err.toByteArray()));
    }

    /** The bytes as text, after checking them: strict UTF-8, no control or format character but LF and TAB. */
    private static String safe(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new AssertionError("not UTF-8: " + e);
        }
        for (byte b : bytes) {
            assertTrue(b == '\n' || b == '\t' || (b & 0xFF) >= 0x20 && b != 0x7F, "raw byte " + (b & 0xFF) + " in\n"
                    + TerminalText.escape(text));
        }
        assertTrue(text.codePoints().allMatch(c -> c == '\n' || c == '\t' || !TerminalText.isUnsafe(c)),
                () -> "raw control character in\n" + TerminalText.escape(text));
        return text;
    }

    /** Every {@code error:}/{@code warning:} line is whole: the next line starts as a line of its own. */
    private static void oneLinePerMessage(String err, int expected) {
        List<String> lines = err.lines().filter(l -> l.startsWith("error: ") || l.startsWith("warning: ")).toList();
        assertEquals(expected, lines.size(), err);
        assertTrue(err.lines().allMatch(l -> l.startsWith("error: ") || l.startsWith("warning: ")
                || l.startsWith("usage: ") || l.startsWith("  ") || l.startsWith("commands:") || l.startsWith("Run ")),
                err);
    }

    private static final String ESCAPED = "\\u001b]0;pwned\\u0007\\u001b[2J\\u0000x\\u009b31m\\u007f\\u2028\\u202e!";

    @Test
    void checkEscapesTheDescription(@TempDir Path dir) throws IOException {
        Path file = ReliabilityFiles.write(dir, "described", """
                {"format": "hostir-fusion/1", "name": "described", "description": "%s",
                 "tensors": [{"name": "a", "dtype": "float", "axes": [4]}, {"name": "b", "dtype": "float", "axes": [4]}],
                 "ops": [{"op": "set", "inputs": ["a"], "output": "b"}], "inputs": ["a"], "outputs": ["b"]}
                """.formatted(json(HOSTILE)));
        Printed p = run("check", file.toString(), "--devices", "1");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("  " + ESCAPED + "\n"), p.out());
    }

    /** A fusion's name that is not an identifier is refused, and the refusal quotes it escaped, on one line. */
    @Test
    void aHostileNameIsRefusedOnOneLine(@TempDir Path dir) throws IOException {
        Path file = ReliabilityFiles.write(dir, "named", """
                {"format": "hostir-fusion/1", "name": "%s",
                 "tensors": [{"name": "a", "dtype": "float", "axes": [4]}, {"name": "b", "dtype": "float", "axes": [4]}],
                 "ops": [{"op": "set", "inputs": ["a"], "output": "b"}], "inputs": ["a"], "outputs": ["b"]}
                """.formatted(json("n\n" + HOSTILE)));
        for (String command : List.of("check", "lower", "export", "run")) {
            Printed p = command.equals("export") ? run(command, "--python", file.toString(), "--devices", "1")
                    : run(command, file.toString(), "--devices", "1");
            assertEquals(2, p.code(), command + ": " + p.err());
            oneLinePerMessage(p.err(), 1);
            assertTrue(p.err().startsWith("error: " + file + ":1: $.name: invalid fusion name 'n\\u000a\\u001b]0;pwned")
                    && p.err().strip().endsWith("[schema.name]"), p.err());
        }
    }

    /** A file whose path holds controls: every command names it escaped, in its listing and in its errors. */
    @Test
    void hostilePathsAreEscapedByEveryCommand(@TempDir Path dir) throws IOException {
        Path good = ReliabilityFiles.small(dir, "good");
        Path file = Files.copy(good, dir.resolve(HOSTILE_PATH + ".fusion"));
        String escapedPath = TerminalText.escape(file.toString());
        Printed check = run("check", file.toString(), "--devices", "1");
        assertEquals(0, check.code(), check.err());
        assertTrue(check.out().contains("(" + escapedPath + ")"), check.out());
        Path broken = Files.writeString(dir.resolve(HOSTILE_PATH + "broken.fusion"), "nope");
        for (List<String> args : List.of(List.of("check"), List.of("lower"), List.of("run"), List.of("export",
                "--cpp"), List.of("dump"), List.of("diff", good.toString()))) {
            List<String> all = new ArrayList<>(args);
            all.add(args.getFirst().equals("dump") || args.getFirst().equals("diff") ? file + ".missing"
                    : broken.toString());
            Printed p = run(all.toArray(String[]::new));
            assertEquals(2, p.code(), all + ": " + p.err());
            oneLinePerMessage(p.err(), 1);
            assertTrue(p.err().contains(TerminalText.escape(all.getLast())), all + ": " + p.err());
        }
    }

    /** Arguments are user text too: an unknown command, an unknown option, a bad --set. */
    @Test
    void argumentsAreEscapedInErrors(@TempDir Path dir) throws IOException {
        Path good = ReliabilityFiles.small(dir, "good");
        for (String[] args : new String[][] {{"chec\nk" + HOSTILE}, {"check", good.toString(), "--se\nt" + HOSTILE},
                {"check", good.toString(), "--set", "M=" + HOSTILE}, {"lower", good.toString(), "--option", HOSTILE},
                {"lower", good.toString(), "--devices", HOSTILE}}) {
            Printed p = run(args);
            assertEquals(2, p.code(), p.err());
            oneLinePerMessage(p.err(), 1);
            assertTrue(p.err().contains("\\u001b]0;pwned\\u0007"), p.err());
        }
    }

    /** A log's own text (the line before a container, a statement kept as text) echoed by dump and diff. */
    @Test
    void dumpAndDiffEscapeTheLogsText(@TempDir Path dir) throws IOException {
        String example = RepoPaths.repo().resolve("examples/seeds/allgather_p2p.fusion").toString();
        String program = run("lower", example, "--devices", "2").out();
        int cut = program.indexOf('\n', program.indexOf("FOR ")) + 1;
        String hostile = program.substring(0, cut) + "    Frobnicate " + HOSTILE + "\n" + program.substring(cut);
        Path log = Files.writeString(dir.resolve("run.log"), "the test says " + HOSTILE + "\n" + hostile + "\n");
        Printed dump = run("dump", log.toString());
        assertEquals(0, dump.code(), dump.err());
        assertTrue(dump.out().contains("the test says " + ESCAPED), dump.out());
        assertTrue(dump.out().contains("Frobnicate " + ESCAPED), dump.out());
        oneLinePerMessage(dump.err(), 1);
        assertTrue(dump.err().contains("kept as text") && dump.err().contains(ESCAPED), dump.err());

        Path plain = Files.writeString(dir.resolve("plain.log"), program + "\n");
        Printed diff = run("diff", plain.toString(), log.toString());
        assertEquals(1, diff.code(), diff.out() + diff.err());
        assertTrue(diff.out().contains("Frobnicate " + ESCAPED), diff.out());
    }

    @Test
    void escapingIsOneFunctionAndIdempotent() {
        assertEquals(ESCAPED, TerminalText.escape(HOSTILE));
        assertEquals(ESCAPED, TerminalText.escape(ESCAPED));
        assertEquals("tab\\u0009cr\\u000dlf\\u000a nel\\u0085 bom\\ufeff lone\\ud800 tag\\U000e0001 ok \u00e9\u4e2d"
                + "\uD83D\uDE00", TerminalText.escape("tab\tcr\rlf\n nel\u0085 bom\uFEFF lone\uD800 tag\uDB40\uDC01 ok"
                + " \u00e9\u4e2d\uD83D\uDE00"));
    }

    /** {@code text} as the inside of a JSON string: every character that is not printable ASCII as {@code \}u. */
    private static String json(String text) {
        StringBuilder b = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') b.append(c);
            else b.append(String.format("\\u%04x", (int) c));
        }
        return b.toString();
    }
}
