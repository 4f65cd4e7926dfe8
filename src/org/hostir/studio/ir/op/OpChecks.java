package org.hostir.studio.ir.op;

import java.util.List;
import java.util.OptionalLong;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;

/**
 * What the validator gives an op definition's shape and dtype rules for one op: extents compared and valued
 * under the file's bindings, and reports that name the op and point at its line.
 */
public interface OpChecks {
    /** Whether two extents may be equal under the bindings. */
    boolean same(Extent a, Extent b);

    /** The extent's value under the bindings, where it has one. */
    OptionalLong value(Extent e);

    /** An extent for a message, with its value where it has one ({@code K2 (5)}). */
    String valued(Extent e);

    void fail(OpRule rule, String what);

    /** Whether {@code actual} has the extents of {@code expected}; reports the first difference. */
    boolean sameShape(OpRule rule, String what, List<IterDomain> actual, List<Extent> expected);

    /** The output must not have reduction axes; false after a report. */
    boolean noReductions(OpRule rule);

    /** Whether every symbolic extent of the output's logical axes also sizes a fusion input; false after a report. */
    boolean outputSizedByInputs(OpRule rule);
}
