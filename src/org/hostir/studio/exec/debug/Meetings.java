package org.hostir.studio.exec.debug;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.hostir.studio.exec.debug.TransferPlan.Site;

/**
 * The debugger's rule where the backend cannot say when it is at rest (CUDA: from the host, a stream whose receive
 * waits for a held peer looks like one still running a kernel): a rank posts a {@link Meeting} only together with
 * every other member of it. A rank's host that reaches a node posting meetings waits (visibly, as a stop's
 * {@link StopReason#TEAM}) until each other member has posted its part or waits at its own node posting it, and
 * then the whole group goes on at once. So whatever a rank has posted, its peers have posted too: every stream can
 * finish what it was given, a stop may synchronize every rank's streams (its tensors are final values), and a rank
 * held by the debugger never leaves a peer's kernel spinning. Holding a host only delays when it issues a node, so
 * the outputs are those of a plain run. Every method runs under {@link Holds}' monitor.
 */
final class Meetings {
    /** A meeting a waiting rank cannot post yet, and the members that are not at theirs. */
    record Unmet(Meeting meeting, List<Integer> absent) {}

    private final Map<Integer, TransferPlan> plans;
    private final Map<Integer, Set<Meeting>> posted = new HashMap<>();
    private final Map<Integer, List<Meeting>> waiting = new HashMap<>();

    Meetings(Map<Integer, TransferPlan> plans) { this.plans = Map.copyOf(plans); }

    /**
     * Rank {@code rank} is about to issue the node at {@code site}: whether it may now (it posts no meeting there,
     * or every member is there too, and so are theirs'). If not it waits, until {@link #waits} turns false.
     */
    boolean arrive(int rank, Site site) {
        List<Meeting> ms = plans.get(rank).postedAt(site);
        if (ms.isEmpty()) return true;
        waiting.put(rank, ms);
        meetAll();
        return !waiting.containsKey(rank);
    }

    boolean waits(int rank) { return waiting.containsKey(rank); }

    /** A waiting rank's meetings that cannot be posted yet, each with the members not waiting at their part. */
    List<Unmet> unmet(int rank) {
        List<Unmet> out = new ArrayList<>();
        for (Meeting m : waiting.getOrDefault(rank, List.of())) {
            List<Integer> absent = m.others(rank).stream().filter(o -> !postedOrWaiting(o, m)).toList();
            if (!absent.isEmpty()) out.add(new Unmet(m, absent));
        }
        return out;
    }

    /** The meetings {@code rank} would post at {@code site} that some other member has neither posted nor waits at. */
    List<Unmet> pending(int rank, Site site) {
        List<Unmet> out = new ArrayList<>();
        for (Meeting m : plans.get(rank).postedAt(site)) {
            List<Integer> absent = m.others(rank).stream().filter(o -> !postedOrWaiting(o, m)).toList();
            if (!absent.isEmpty()) out.add(new Unmet(m, absent));
        }
        return out;
    }

    /** Where {@code rank} posts its part of {@code m}, if its plan knows. */
    Optional<Site> siteOf(int rank, Meeting m) {
        TransferPlan p = plans.get(rank);
        return p == null ? Optional.empty() : p.siteOf(m);
    }

    private boolean postedOrWaiting(int rank, Meeting m) {
        return posted.getOrDefault(rank, Set.of()).contains(m) || waiting.getOrDefault(rank, List.of()).contains(m);
    }

    /** Lets every group that is complete go, until none is (one group's posts may complete another's). */
    private void meetAll() {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int r : List.copyOf(waiting.keySet())) {
                if (!waiting.containsKey(r)) continue;
                Optional<Set<Integer>> group = group(r);
                if (group.isEmpty()) continue;
                for (int g : group.get()) posted.computeIfAbsent(g, x -> new HashSet<>()).addAll(waiting.remove(g));
                progress = true;
            }
        }
    }

    /** {@code r} and the waiting ranks it must post with, closed over their meetings, when every one is there. */
    private Optional<Set<Integer>> group(int r) {
        Set<Integer> group = new TreeSet<>(List.of(r));
        Deque<Integer> todo = new ArrayDeque<>(List.of(r));
        while (!todo.isEmpty()) {
            int m = todo.pop();
            for (Meeting k : waiting.get(m)) {
                for (int o : k.others(m)) {
                    if (group.contains(o) || posted.getOrDefault(o, Set.of()).contains(k)) continue;
                    if (!waiting.getOrDefault(o, List.of()).contains(k)) return Optional.empty();
                    group.add(o);
                    todo.push(o);
                }
            }
        }
        return Optional.of(group);
    }
}
