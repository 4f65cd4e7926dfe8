package org.hostir.studio.exec;

/**
 * Asked by the {@link Evaluator} before it issues each Host IR node, on the rank's host thread: the one place a
 * debugger holds a rank between nodes. A hook may block; it never changes what the evaluator does next.
 */
@FunctionalInterface
public interface NodeHook {
    NodeHook NONE = at -> { };

    void before(ProgramPosition at);
}
