package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a simulation ended with ops not done, in the CPU backend's words where it has them: collectives some ranks
 * of the team never posted, transfers whose other side never came, and what the first ops still waiting were.
 */
final class Unfinished {
    private static final int SHOWN = 10;

    private Unfinished() {}

    /** Null when every op is done. */
    static String describe(List<SimOp> ops) {
        List<String> lines = new ArrayList<>();
        int stuck = 0;
        for (SimOp op : ops) {
            if (op.done()) continue;
            stuck++;
            if (lines.size() < SHOWN && !Double.isNaN(op.startUs)) lines.add(op.describe() + " " + waitsOn(op));
        }
        if (stuck == 0) return null;
        for (SimOp op : ops) {
            if (lines.size() >= SHOWN) break;
            if (!op.done() && Double.isNaN(op.startUs)) lines.add(op.describe() + " waits for earlier work");
        }
        return "the ranks' communications do not match (simulated): " + stuck + " op" + (stuck == 1 ? "" : "s")
                + " never completed\n" + String.join("\n", lines);
    }

    private static String waitsOn(SimOp op) {
        if (op.collective() != null) {
            CollectiveMatch m = op.collective();
            List<Integer> missing = m.team.stream().filter(r -> !m.parts.containsKey(r)).toList();
            return "waits for collective #" + m.sequence + " of team " + m.team + ": ranks " + missing
                    + " never posted it";
        }
        List<String> open = new ArrayList<>();
        if (op.transfers == null) return "";
        for (Transfer x : op.transfers) {
            if (!Double.isNaN(x.endUs)) continue;
            boolean sending = x.send == op;
            open.add(x.describe(sending) + (sending ? (x.recv == null ? " (never received)" : " (receiver not started)")
                    : (x.send == null ? " (never sent)" : " (sender not started)")));
        }
        return "waits for " + String.join(", ", open);
    }
}
