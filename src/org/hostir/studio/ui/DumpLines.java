package org.hostir.studio.ui;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * The Host IR nodes the lines of a dump or log state, for breakpoints toggled and drawn in a ruler beside its text
 * (the Host IR Dump Editor's, the Lowering view's program text): the text is read as {@code hirstudio debug
 * --program} reads it, and a line states the node whose headline it is in the dump's nvFuser generation, or whose
 * headline starts with its kind and id ({@code P2PCommunication 3 (}) where the dump spells the rest differently.
 * Lines of no node (a {@code FOR}'s closing brace, text between containers) have none.
 */
public final class DumpLines {
    private DumpLines() {}

    /** The node at 1-based {@code line} of {@code text}, if the line states one. */
    public static Optional<HostNode> nodeAt(String text, int line) {
        return Optional.ofNullable(nodes(text).get(line));
    }

    /** The 1-based line that states the node {@code nodeId} (its first, in a log of several containers). */
    public static Optional<Integer> lineOf(String text, int nodeId) {
        return nodes(text).entrySet().stream().filter(e -> e.getValue().id() == nodeId).map(Map.Entry::getKey)
                .findFirst();
    }

    /** Every line that states a node, by 1-based line. */
    public static Map<Integer, HostNode> nodes(String text) {
        Map<Integer, HostNode> out = new TreeMap<>();
        if (!text.contains("%HostIrContainer")) return out;
        String[] lines = text.split("\n", -1);
        try {
            for (LogProgram p : Engine.readDumps(text, "dump")) {
                if (!p.readable()) continue;
                var generation = p.dump().generation();
                var nodes = p.dump().program().allNodes();
                for (int line = Math.max(1, p.firstLine()); line <= Math.min(lines.length, p.lastLine()); line++) {
                    String stated = lines[line - 1].strip();
                    if (stated.isEmpty()) continue;
                    for (HostNode n : nodes) {
                        if (stated.equals(HostIrPrinter.headline(n, generation))
                                || stated.startsWith(StopText.node(n) + " (")) {
                            out.putIfAbsent(line, n);
                            break;
                        }
                    }
                }
            }
        } catch (EngineFailure notADump) {
            return Map.of();
        }
        return out;
    }
}
