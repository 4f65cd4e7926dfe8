package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.host.IndexDefinition;

/**
 * The "Index definitions:" block after a container (#5327: {@code NVFUSER_DUMP=host_ir(indices)},
 * csrc/ir/printer.cpp:90-102 at 81c4b22fd): one {@code   i90 = i88 % 8;} a line, a scalar BinaryOp's
 * toString, until a blank line. A definition of another shape is kept as its text, with a warning.
 */
final class IndexDefinitions {
    // a line may end "\r\n" (a log saved or pasted on Windows): the block is then read all the same
    private static final Pattern HEADER = Pattern.compile("\\A\\s*\\n?\\s*Index definitions:[ \\t]*\\r?\\n");
    private static final Pattern LINE =
            Pattern.compile("\\A[ \\t]+([A-Za-z_][A-Za-z0-9_.]*) = ([^;\\r\\n]+);[ \\t]*\\r?(\\n|\\z)");
    private static final String OPERAND = "([A-Za-z_][A-Za-z0-9_.]*|-?[0-9]+)";
    private static final Pattern BINARY = Pattern.compile(OPERAND + " ([-+*/%]) " + OPERAND);

    private IndexDefinitions() {}

    /** What the block held and where it ended (the offset after its last line); {@code from} when there is none. */
    record Block(List<IndexDefinition> indices, int end, List<String> keptAsText) {}

    static Block read(String text, int from) {
        Matcher header = HEADER.matcher(text).region(from, text.length());
        if (!header.lookingAt()) return new Block(List.of(), from, List.of());
        int at = header.end();
        List<IndexDefinition> out = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        Matcher line = LINE.matcher(text);
        while (at < text.length() && line.region(at, text.length()).lookingAt()) {
            Scalar value = value(line.group(2).trim());
            if (value == null) {
                kept.add(line.group(1) + " = " + line.group(2).trim());
                value = new NamedScalar(line.group(2).trim());
            }
            out.add(new IndexDefinition(new NamedScalar(line.group(1)), value));
            at = line.end();
        }
        return new Block(out, at, kept);
    }

    /** {@code a op b} of names and integers, as BinaryOp prints a scalar one; null otherwise. */
    private static Scalar value(String text) {
        Matcher m = BINARY.matcher(text);
        if (!m.matches()) return null;
        ScalarBinary.Op op = switch (m.group(2)) {
            case "+" -> ScalarBinary.Op.ADD;
            case "-" -> ScalarBinary.Op.SUB;
            case "*" -> ScalarBinary.Op.MUL;
            case "/" -> ScalarBinary.Op.DIV;
            default -> ScalarBinary.Op.MOD;
        };
        return new ScalarBinary(op, operand(m.group(1)), operand(m.group(3)));
    }

    private static Scalar operand(String s) {
        return Character.isLetter(s.charAt(0)) || s.charAt(0) == '_' ? new NamedScalar(s)
                : new Extent.Constant(Long.parseLong(s));
    }
}
