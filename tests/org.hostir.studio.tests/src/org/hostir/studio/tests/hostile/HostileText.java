package org.hostir.studio.tests.hostile;

import java.util.List;

/**
 * Free text an attacker or an accident puts into a name or a description: line breaks of every kind, quotes and
 * comment ends of both export languages, terminal escape sequences, invisible and huge text. Each reaches the
 * terminal and the exports; none may break out of a string or comment, none may reach a terminal raw.
 */
record HostileText(String label, String text) {
    static final List<HostileText> ALL = List.of(
            new HostileText("newline then code", "pwn\nimport os; os.system('touch X')\n#"),
            new HostileText("carriage return", "a\rb"),
            new HostileText("CRLF", "a\r\nimport os\r\n"),
            new HostileText("double quote", "a\"; import os; \""),
            new HostileText("single quote", "a'; import os; '"),
            new HostileText("backslash at the end", "a\\"),
            new HostileText("backslash newline", "a\\\nimport os"),
            new HostileText("C comment end", "a */ int x = system(\"id\"); /* b"),
            new HostileText("C++ line comment", "a // b"),
            new HostileText("triple double quotes", "a\"\"\"; import os; \"\"\""),
            new HostileText("triple single quotes", "a'''; import os; '''"),
            new HostileText("python comment", "a # b"),
            new HostileText("ESC colour", "evil\u001b[31mred\u001b[0m"),
            new HostileText("ESC title and BEL", "\u001b]0;owned\u0007title"),
            new HostileText("NUL", "a\u0000b"),
            new HostileText("backspace and DEL", "ab\b\u007f"),
            new HostileText("C1 CSI", "a\u009b31mb"),
            new HostileText("NEL", "a\u0085import os"),
            new HostileText("line separator", "a\u2028import os"),
            new HostileText("paragraph separator", "a\u2029import os"),
            new HostileText("form feed and vertical tab", "a\f\u000bb"),
            new HostileText("right-to-left override", "a\u202eb"),
            new HostileText("emoji (surrogate pair)", "a\ud83d\ude00b"),
            new HostileText("byte order mark", "\ufeffa"),
            new HostileText("empty", ""),
            new HostileText("huge (1 MiB)", "x".repeat(1 << 20)),
            new HostileText("huge lines", "line\n".repeat(20_000)));

    /** A name nvFuser's builders could take as is: never hostile, a control for the generator. */
    static final HostileText PLAIN = new HostileText("plain identifier", "my_fusion_2");
}
