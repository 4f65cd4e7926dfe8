package org.hostir.studio.exec;

import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * A run refused because its program holds a node the Studio reads and prints but cannot run (nvFuser's
 * LaunchKernel, MoeDispatch, ...; {@code ir.host.NotExecutable} says why), so callers can tell it from a failure.
 */
public final class NotExecutableNodeException extends ExecutionException {
    private static final long serialVersionUID = 1L;

    private final transient HostNode node;

    public NotExecutableNodeException(HostNode node, String reason) {
        super("cannot run '" + HostIrPrinter.headline(node) + "': " + reason);
        this.node = node;
    }

    /** The node refused. */
    public HostNode node() { return node; }
}
