package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * A team-wide communication breakpoint ({@link Breakpoint#team()}): the rank it names and every member of the team
 * its communication states are held at that communication, in the same iteration; ranks outside the team run on.
 */
class DebugTeamBreakpointTest {
    private static int firstCommunication(Compilation c, int rank) {
        return c.program(rank).allNodes().stream().filter(n -> n instanceof Communication).findFirst().orElseThrow()
                .id();
    }

    /** The ranks held at a breakpoint on {@code node} at this stop. */
    private static Set<Integer> heldAt(DebugStop stop, int node) {
        Set<Integer> out = new TreeSet<>();
        for (var r : stop.ranks()) {
            if (r.state() == RankState.SUSPENDED && r.reason().orElseThrow() == StopReason.BREAKPOINT
                    && r.at().orElseThrow().node().id() == node) {
                out.add(r.rank());
            }
        }
        return out;
    }

    /**
     * seeds/allgather's Allgather held on rank 1 in iteration 0: alone, rank 0 posts it and waits in the collective
     * (DebugSessionTest); team-wide, rank 0 is held before it too, in iteration 0, and the run ends as a plain run.
     */
    @Test
    void theAllgathersWholeTeamIsHeldWithTheRankItNames() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
            Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
            int allgather = firstCommunication(compilation, 0);
            Breakpoint alone = Breakpoint.at(allgather).onRank(1).inIteration(0);
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(alone), false, 5)) {
                assertEquals(Set.of(1), heldAt(s.awaitStop(), allgather), "without the team: rank 1 alone");
            }
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(alone.wholeTeam()), false, 5)) {
                DebugStop stop = s.awaitStop();
                assertEquals(Set.of(0, 1), heldAt(stop, allgather), stop.toString());
                for (int r = 0; r < 2; r++) assertEquals(0, stop.rank(r).at().orElseThrow().iteration(), "rank " + r);
                assertTrue(stop.waits().edges().isEmpty(), "nobody waits: every member is held before it");
                s.resume(List.of(0, 1));
                DebugStop end = s.awaitStop();
                assertTrue(end.ended(), end.toString());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * conformance/allgather_2d on a 2 x 2 mesh: the Allgather gathers within a mesh row, so a team-wide breakpoint
     * named for rank 0 holds rank 0 and its row's other member, as rank 0's program states the team, and the other
     * row runs on through it.
     */
    @Test
    void onATwoDimensionalMeshOnlyTheNamedRanksSliceIsHeld() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("conformance/allgather_2d", 4, Map.of());
            Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
            int node = firstCommunication(compilation, 0);
            Set<Integer> team = new TreeSet<>(((Communication) compilation.program(0).allNodes().stream()
                    .filter(n -> n.id() == node).findFirst().orElseThrow()).team());
            assertEquals(2, team.size(), "a row of the 2 x 2 mesh: " + team);
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(Breakpoint.at(node).onRank(0).wholeTeam()),
                    false, 5)) {
                DebugStop stop = s.awaitStop();
                assertEquals(team, heldAt(stop, node), stop.toString());
                for (var r : stop.ranks()) {
                    if (!team.contains(r.rank())) assertFalse(r.state() == RankState.SUSPENDED, "rank " + r.rank());
                }
                s.resume(s.ranks());
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /** The rule itself: the rank named, or (team-wide) a member of the team at the node, in the iteration named. */
    @Test
    void aTeamWideBreakpointMatchesTheMembersOfTheTeamAtItsNode() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
        Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        int id = firstCommunication(compilation, 0);
        var node = compilation.program(0).allNodes().stream().filter(n -> n.id() == id).findFirst().orElseThrow();
        ProgramPosition rank0 = new ProgramPosition(0, node, 0, List.of());
        Breakpoint onRank1 = new Breakpoint(id, OptionalInt.of(1), OptionalLong.empty());
        assertFalse(onRank1.matches(rank0, p -> Set.of(0, 1)), "not team-wide: the rank named only");
        assertTrue(onRank1.wholeTeam().matches(rank0, p -> Set.of(0, 1)));
        assertFalse(onRank1.wholeTeam().matches(rank0, p -> Set.of(0, 2)), "rank 1 is not in rank 0's team");
        assertFalse(onRank1.wholeTeam().matches(rank0, p -> Set.of()), "a node that is no communication");
        assertFalse(onRank1.wholeTeam().inIteration(3).matches(rank0, p -> Set.of(0, 1)), "another iteration");
        assertEquals(id + "@1:3+team", onRank1.wholeTeam().inIteration(3).toString());
    }
}
