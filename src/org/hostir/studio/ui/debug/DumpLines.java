package org.hostir.studio.ui.debug;

import java.util.Optional;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * The Host IR node a line of a dump or log states, for a breakpoint toggled in the dump's ruler: the dump is read
 * as {@code hirstudio debug --program} reads it, and the line is the node whose headline it is in the dump's
 * nvFuser generation, or whose headline starts with its kind and id ({@code P2PCommunication 3 (}) where the
 * dump spells the rest differently. Lines of no node (a {@code FOR}'s closing brace, text between containers)
 * have none.
 */
final class DumpLines {
    private DumpLines() {}

    /** The node at 1-based {@code line} of {@code text}, if the line states one. */
    static Optional<HostNode> nodeAt(String text, int line) {
        if (!text.contains("%HostIrContainer")) return Optional.empty();
        String[] lines = text.split("\n", -1);
        if (line < 1 || line > lines.length) return Optional.empty();
        String stated = lines[line - 1].strip();
        if (stated.isEmpty()) return Optional.empty();
        try {
            for (LogProgram p : Engine.readDumps(text, "dump")) {
                if (!p.readable() || line < p.firstLine() || line > p.lastLine()) continue;
                var generation = p.dump().generation();
                for (HostNode n : p.dump().program().allNodes()) {
                    if (stated.equals(HostIrPrinter.headline(n, generation))
                            || stated.startsWith(StopText.node(n) + " (")) {
                        return Optional.of(n);
                    }
                }
            }
        } catch (EngineFailure notADump) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
