package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * No command calls another: what two commands share lives in a class of its own (RunFlow, RunReport, the engine
 * service), so a command is read, changed and tested alone. Only the dispatch table (Commands) names them all.
 */
class CommandIndependenceTest {
    private static final Pattern COMMAND = Pattern.compile("\\bclass\\s+(\\w+)\\s+implements\\s+Command\\b");

    @Test
    void noCommandClassNamesAnotherCommandClass() throws IOException {
        Path cli = TestPaths.sourceRoot().resolve("org/hostir/studio/cli");
        List<Path> files;
        try (Stream<Path> s = Files.list(cli)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        List<String> commands = new ArrayList<>();
        for (Path f : files) {
            Matcher m = COMMAND.matcher(Files.readString(f));
            if (m.find()) commands.add(m.group(1));
        }
        assertTrue(commands.size() >= 4, "found only " + commands);
        List<String> offenders = new ArrayList<>();
        for (Path f : files) {
            String name = f.getFileName().toString().replace(".java", "");
            if (!commands.contains(name)) continue;
            String text = Files.readString(f);
            for (String other : commands) {
                if (!other.equals(name) && Pattern.compile("\\b" + other + "\\b").matcher(text).find()) {
                    offenders.add(name + " names " + other);
                }
            }
        }
        assertTrue(offenders.isEmpty(), "commands that call or name other commands: " + offenders);
    }
}
