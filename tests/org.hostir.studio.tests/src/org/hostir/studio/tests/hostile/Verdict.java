package org.hostir.studio.tests.hostile;

/**
 * What became of one hostile case (issue 31, Deliver 6). The first two are the only good outcomes; the suite
 * asserts that none of the others occurs. Declared from the most severe down: a case that is several things at
 * once is counted as the first of them.
 */
enum Verdict {
    /** A file that existed before the command is changed or gone, or a temporary file is left behind. */
    FILE_DESTROYED("file-destroyed"),
    /** Exit 3, an {@code internal error:} line, or no answer within the case's time. */
    INTERNAL_ERROR("internal-error"),
    /** Exit 0 for an input that must be refused, or an accepted result that breaks its checks (raw control
     * characters on the terminal, injected code in an export, a written JSON that is not JSON). */
    WRONG_ACCEPTANCE("wrong-acceptance"),
    /** A refusal that is not one clear line: several lines, no location, a stack trace, a Java class name, a raw
     * control character, exit 1 where the input should have been refused up front. */
    UNCLEAR_ERROR("unclear-error"),
    /** A clear refusal of an input the issue says must be accepted (a description is kept and escaped). */
    WRONG_REFUSAL("wrong-refusal"),
    ACCEPTED_CORRECTLY("accepted-correctly"),
    /** Exit 2, exactly one {@code error:} line naming the file (or flag) and, for a file's content, its rule. */
    REFUSED_CLEARLY("refused-clearly");

    final String label;

    Verdict(String label) { this.label = label; }

    boolean bad() { return this != ACCEPTED_CORRECTLY && this != REFUSED_CLEARLY; }
}
