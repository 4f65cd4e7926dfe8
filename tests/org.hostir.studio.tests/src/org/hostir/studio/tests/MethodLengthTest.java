package org.hostir.studio.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The house style's limit: every method (and constructor, and field-level lambda) in {@code src} is under 60
 * lines, counted from its declaration to its closing brace. Scans the sources: blocks are classified by the text
 * before their opening brace (a type declaration, a method directly inside a type, or any other block).
 */
public class MethodLengthTest {
    static final int LIMIT = 60;
    private static final Pattern TYPE = Pattern.compile("(^|[^\\w.])(class|interface|enum|record)\\s+\\w+|\\bnew\\s+[\\w.<>]+\\s*\\(");

    enum Block { TYPE, METHOD, OTHER }

    record Method(String where, int lines) {}

    @Test
    public void everyMethodIsUnderTheLimit() {
        List<String> offenders = new ArrayList<>();
        for (ArchitectureTest.Source s : ArchitectureTest.sources()) {
            for (Method m : methods(s.text())) {
                if (m.lines() > LIMIT) {
                    offenders.add(TestPaths.sourceRoot().relativize(s.file()) + ":" + m.where() + " has " + m.lines() + " lines");
                }
            }
        }
        assertTrue(offenders.isEmpty(), "methods over " + LIMIT + " lines (split them):\n  "
                + String.join("\n  ", offenders));
    }

    /** The scanner itself: a method, a nested type's method, a lambda and a record are told apart. */
    @Test
    public void theScannerCountsMethodsOnly() {
        String text = """
                class A {
                    record R(int x) {
                        R {
                            if (x < 0) { throw new IllegalArgumentException("{"); }
                        }
                    }
                    void f() {
                        Runnable r = () -> {
                            g();
                        };
                        String s = "}";
                    }
                    Object o = new Object() {
                        public String toString() {
                            return "";
                        }
                    };
                }
                """;
        assertEquals(List.of(new Method("7 f", 6), new Method("14 toString", 3)), methods(text));
    }

    static List<Method> methods(String text) {
        String code = blankLiterals(ArchitectureTest.withoutComments(text));
        List<Method> out = new ArrayList<>();
        Deque<Block> blocks = new ArrayDeque<>();
        Deque<Integer> starts = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        int headStart = 0;
        int line = 1;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\n') line++;
            if (c == '{') {
                String head = code.substring(headStart, i);
                Block kind = TYPE.matcher(head).find() ? Block.TYPE
                        : blocks.peek() == Block.TYPE && head.contains("(") ? Block.METHOD : Block.OTHER;
                blocks.push(kind);
                starts.push(line - (int) head.strip().chars().filter(ch -> ch == '\n').count());
                names.push(kind == Block.METHOD ? name(head) : "");
                headStart = i + 1;
            } else if (c == '}') {
                if (blocks.isEmpty()) continue;
                Block kind = blocks.pop();
                int start = starts.pop();
                String name = names.pop();
                if (kind == Block.METHOD) out.add(new Method(start + " " + name, line - start + 1));
                headStart = i + 1;
            } else if (c == ';') {
                headStart = i + 1;
            }
        }
        return out;
    }

    private static String name(String head) {
        String before = head.substring(0, head.indexOf('(')).strip();
        int space = Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'));
        return before.substring(space + 1);
    }

    /** Replaces the contents of string, text-block and char literals by spaces, keeping line breaks. */
    static String blankLiterals(String code) {
        StringBuilder b = new StringBuilder(code.length());
        int i = 0;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (code.startsWith("\"\"\"", i)) {
                int end = code.indexOf("\"\"\"", i + 3);
                end = end < 0 ? code.length() : end + 3;
                blank(code, i, end, b);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < code.length() && code.charAt(j) != c && code.charAt(j) != '\n') {
                    j += code.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(j + 1, code.length());
                blank(code, i, end, b);
                i = end;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    private static void blank(String code, int from, int to, StringBuilder b) {
        for (int k = from; k < to; k++) b.append(code.charAt(k) == '\n' ? '\n' : ' ');
    }
}
