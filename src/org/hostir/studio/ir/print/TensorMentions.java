package org.hostir.studio.ir.print;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.hostir.studio.ir.TensorView;

/**
 * Which printed Host IR lines name a tensor: the rule by which a tensor selected in the fusion editor is found in the
 * Lowering view's program. A person who selects {@code tv1} looks for {@code T1}, the name the dump prints (its
 * input binding, the communication or matmul that reads it), not for every node of the ops that touch it: the
 * matmul's first node allocates its output, and selecting that read as the wrong node (issue 35, driven by hand).
 */
public final class TensorMentions {
    private TensorMentions() {}

    /**
     * Whether {@code line} names {@code tv}: its {@code T<id>_} spelling ({@link IrText#tensor}) where no letter,
     * digit or dot comes before it, so that {@code T1} is not found in {@code T11_} or in another word.
     */
    public static boolean names(String line, TensorView tv) {
        return name(tv).matcher(line).find();
    }

    private static Pattern name(TensorView tv) {
        return Pattern.compile("(?<![\\w.])T" + tv.id() + "_");
    }

    /**
     * The rows to select for {@code tv}: those whose printed {@code line} names it; when none does (a rank that
     * only holds slices of it), the rows {@code lowered} accepts, the nodes lowered from the ops that read or write
     * it.
     */
    public static <R> List<R> rowsFor(List<R> rows, Function<R, String> line, TensorView tv, Predicate<R> lowered) {
        Pattern name = name(tv);   // compiled once for all the rows
        List<R> naming = rows.stream().filter(r -> name.matcher(line.apply(r)).find()).toList();
        return naming.isEmpty() ? rows.stream().filter(lowered).toList() : naming;
    }
}
