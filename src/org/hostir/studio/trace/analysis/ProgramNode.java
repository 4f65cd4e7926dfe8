package org.hostir.studio.trace.analysis;

/**
 * A top-level node of one rank's Host IR program, as nvFuser's evaluator dispatches them in order: its position,
 * its node id and its op string (nvFuser's {@code getOpString()} without the {@code hir::}/{@code kir::}
 * namespace: {@code Communication}, {@code LaunchKernel}, {@code ForLoop}). The front end that lowered or read the
 * program makes these; {@link NodeMatching} ties an imported trace's dispatch ranges to them.
 */
public record ProgramNode(int rank, int index, int nodeId, String op) {
    /** An op string as nvFuser's ranges spell it ({@code hir::Wait}) or as the program does ({@code Wait}). */
    public static String bare(String op) {
        return op.replaceFirst("^(hir|kir)::", "");
    }
}
