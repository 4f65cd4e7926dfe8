package org.hostir.studio.tests.hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of an exported program with every comment removed and every string literal reduced to one token:
 * two exports of one fusion whose names or descriptions differ must have the same skeleton, else user text
 * escaped a comment or string and became code (issue 31 item 1). A small lexer per language, as the Python
 * tokenizer and a C++ compiler's phases 1-3 split text: line comments (a C++ one continues past a backslash at the
 * end of its line), block comments, quotes with backslash escapes, Python's triple quotes, C++ raw strings. A
 * string left open, or an f-string's text (its braces are code), is kept as it is, so user text there differs.
 */
final class ExportSkeleton {
    enum Language { PYTHON, CPP }

    private ExportSkeleton() {}

    /** One entry per non-blank line (Python: lines matter) or per token (C++: they do not). */
    static List<String> of(String code, Language language) {
        return language == Language.PYTHON ? python(code) : cpp(code);
    }

    private static List<String> python(String code) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int i = 0, n = code.length();
        while (i < n) {
            char ch = code.charAt(i);
            if (ch == '#') {
                while (i < n && code.charAt(i) != '\n' && code.charAt(i) != '\r') i++;
            } else if (ch == '\n' || ch == '\r') {
                if (!line.toString().isBlank()) lines.add(line.toString().stripTrailing());
                line.setLength(0);
                i++;
            } else if (ch == '"' || ch == '\'') {
                boolean fString = prefix(line).contains("f");
                int end = pythonStringEnd(code, i);
                if (end < 0) return open(lines, line, code.substring(i));
                if (fString) line.append(code, i, end); // its braces are code: kept, so user text in one differs
                else appendString(line);
                i = end;
            } else {
                line.append(ch);
                i++;
            }
        }
        if (!line.toString().isBlank()) lines.add(line.toString().stripTrailing());
        return lines;
    }

    /** The index after the string that starts at {@code i}, or -1 when it is not closed where Python closes it. */
    private static int pythonStringEnd(String code, int i) {
        char q = code.charAt(i);
        boolean triple = code.startsWith(String.valueOf(q).repeat(3), i);
        int j = i + (triple ? 3 : 1);
        while (j < code.length()) {
            char ch = code.charAt(j);
            if (ch == '\\') {
                j += 2;
            } else if (triple && code.startsWith(String.valueOf(q).repeat(3), j)) {
                return j + 3;
            } else if (!triple && ch == q) {
                return j + 1;
            } else if (!triple && (ch == '\n' || ch == '\r')) {
                return -1;
            } else {
                j++;
            }
        }
        return -1;
    }

    private static List<String> cpp(String code) {
        List<String> tokens = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int i = 0, n = code.length();
        while (i < n) {
            char ch = code.charAt(i);
            if (code.startsWith("//", i)) {
                flush(tokens, word);
                while (i < n && code.charAt(i) != '\n' && code.charAt(i) != '\r') i += code.charAt(i) == '\\' ? 2 : 1;
            } else if (code.startsWith("/*", i)) {
                flush(tokens, word);
                int end = code.indexOf("*/", i + 2);
                if (end < 0) return open(tokens, word, code.substring(i));
                i = end + 2;
            } else if (ch == '"' || ch == '\'') {
                boolean raw = ch == '"' && word.toString().endsWith("R");
                int end = raw ? rawStringEnd(code, i) : cppStringEnd(code, i);
                if (end < 0) return open(tokens, word, code.substring(i));
                if (raw) word.setLength(word.length() - 1);
                flush(tokens, word);
                if (tokens.isEmpty() || !tokens.getLast().equals("STRING")) tokens.add("STRING");
                i = end;
            } else if (Character.isWhitespace(ch)) {
                flush(tokens, word);
                i++;
            } else {
                word.append(ch);
                i++;
            }
        }
        flush(tokens, word);
        return tokens;
    }

    private static int cppStringEnd(String code, int i) {
        char q = code.charAt(i);
        for (int j = i + 1; j < code.length(); j++) {
            char ch = code.charAt(j);
            if (ch == '\\') j++;
            else if (ch == q) return j + 1;
            else if (ch == '\n' || ch == '\r') return -1;
        }
        return -1;
    }

    /** {@code R"delim( ... )delim"}. */
    private static int rawStringEnd(String code, int i) {
        int open = code.indexOf('(', i);
        if (open < 0) return -1;
        String close = ")" + code.substring(i + 1, open) + "\"";
        int end = code.indexOf(close, open);
        return end < 0 ? -1 : end + close.length();
    }

    private static String prefix(StringBuilder line) {
        int k = line.length();
        while (k > 0 && Character.isLetter(line.charAt(k - 1))) k--;
        return line.substring(k).toLowerCase();
    }

    /** Adjacent literals are one ({@code "a" "b"}), as both languages join them. */
    private static void appendString(StringBuilder line) {
        String s = line.toString().stripTrailing();
        if (s.endsWith("STRING")) {
            line.setLength(s.length());
        } else {
            line.append("STRING");
        }
    }

    private static void flush(List<String> tokens, StringBuilder word) {
        if (!word.isEmpty()) tokens.add(word.toString());
        word.setLength(0);
    }

    private static List<String> open(List<String> done, StringBuilder current, String rest) {
        List<String> out = new ArrayList<>(done);
        out.add(current + "UNTERMINATED:" + rest);
        return out;
    }
}
