package org.hostir.studio.ir.print;

import java.util.List;

/**
 * A node's printed text as one line, for tree rows and messages. nvFuser prints a tensor op over several lines:
 * MatmulOp::toString writes the output, then {@code  = matmul(A,} and {@code B)} on lines of their own, and its
 * toInlineString refuses ("Tensor op can not be printed inline"; csrc/ir/composite_nodes.cpp:57-67 as stored at
 * f669f646, LinearOp the same at 125-139), so there is no one-line form to quote: the lines are joined, in order,
 * which reads {@code T8 = matmul(T7, T1)}, keeps every operand, and starts with the output as the dump does.
 */
final class Headline {
    private Headline() {}

    /**
     * The lines of {@code printed} stripped and joined by one space; none after an opening bracket or before a
     * closing one or a comma, and a comma that ends a line before a closing bracket dropped (LaunchKernel's
     * {@code Outputs: {..},} then {@code )}).
     */
    static String join(String printed) {
        List<String> lines = printed.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            if (out.isEmpty()) {
                out.append(line);
                continue;
            }
            char last = out.charAt(out.length() - 1);
            char first = line.charAt(0);
            boolean closing = first == ')' || first == '}' || first == ']';
            if (closing && last == ',') out.setLength(out.length() - 1);
            else if (!(closing || first == ',' || last == '(' || last == '{' || last == '[')) out.append(' ');
            out.append(line);
        }
        return out.toString();
    }
}
