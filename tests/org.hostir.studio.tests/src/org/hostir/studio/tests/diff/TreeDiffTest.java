package org.hostir.studio.tests.diff;

import static org.hostir.studio.tests.diff.DiffFixture.lines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.diff.DiffNode;
import org.hostir.studio.diff.DiffSummary;
import org.hostir.studio.diff.TreeDiff;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.api.Test;

class TreeDiffTest {

    private static final String BEFORE_TREE = lines(
            "UNCHANGED get",
            "UNCHANGED alloc",
            "UNCHANGED mm",
            "UNCHANGED loop",
            "  UNCHANGED setWorker",
            "  UNCHANGED selA",
            "  UNCHANGED selC",
            "  UNCHANGED mmSlice",
            "  UNCHANGED setUser",
            "  UNCHANGED syncWorker",
            "UNCHANGED sync");

    private final DiffFixture f = new DiffFixture();

    private TreeDiff diff(List<HostNode> after) { return TreeDiff.compare(f.before(), f.program(after)); }

    private static List<HostNode> with(List<HostNode> nodes, int index, HostNode added) {
        List<HostNode> out = new ArrayList<>(nodes);
        out.add(index, added);
        return out;
    }

    private static List<HostNode> without(List<HostNode> nodes, HostNode removed) {
        List<HostNode> out = new ArrayList<>(nodes);
        assertTrue(out.remove(removed));
        return out;
    }

    @Test
    void identicalProgramsAreAllUnchanged() {
        HostIrContainer before = f.before();
        HostIrContainer copy = before.withTopLevel(List.copyOf(f.topLevel()), before.counters());
        for (HostIrContainer after : List.of(before, copy)) {
            TreeDiff d = TreeDiff.compare(before, after);
            assertEquals(BEFORE_TREE, f.render(d.nodes()));
            assertEquals(new DiffSummary(0, 0, 0, 11, 0), d.summary());
            assertFalse(d.changed());
            assertFalse(d.signatureChanged());
            assertFalse(d.hostUnitsChanged());
        }
        DiffNode first = TreeDiff.compare(before, before).nodes().getFirst();
        assertSame(f.get, first.before());
        assertSame(f.get, first.after());
        assertEquals(DiffNode.Match.ID, first.match());
        assertEquals("GetCurrentStream into Stream 0", first.headline());
    }

    @Test
    void nodeAddedAtTopLevelKeepsItsPlace() {
        HostNode dealloc = f.named("dealloc", f.h.deallocate(f.a));
        TreeDiff d = diff(with(f.topLevel(), 3, dealloc));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop\n", "ADDED dealloc\nUNCHANGED loop\n"), f.render(d.nodes()));
        assertEquals(new DiffSummary(1, 0, 0, 11, 0), d.summary());
        assertTrue(d.changed());
        DiffNode added = d.nodes().get(3);
        assertNull(added.before());
        assertSame(dealloc, added.after());
        assertEquals(DiffNode.Match.NONE, added.match());
        assertEquals(HostIrPrinter.headline(dealloc), added.headline());
        assertTrue(added.headline().startsWith("Deallocate {T0_g_float["), added.headline());
    }

    @Test
    void nodeAddedInsideLoopBodyChangesTheLoop() {
        HostNode extra = f.named("syncUser", f.h.synchronize(Stream.USER));
        ForLoop loop = f.loop.withBody(with(f.loop.body(), 4, extra));
        TreeDiff d = diff(List.of(f.get, f.alloc, f.mm, loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop", "CHANGED loop")
                .replace("  UNCHANGED setUser\n", "  ADDED syncUser\n  UNCHANGED setUser\n"), f.render(d.nodes()));
        assertEquals(new DiffSummary(1, 0, 1, 10, 0), d.summary());
        DiffNode loopDiff = d.nodes().get(3);
        assertEquals(DiffNode.Match.ID, loopDiff.match());
        assertSame(f.loop, loopDiff.before());
        assertSame(loop, loopDiff.after());
        assertEquals(7, loopDiff.children().size());
        assertSame(extra, loopDiff.children().get(4).after());
    }

    @Test
    void removedNodesStayWhereTheyWere() {
        TreeDiff middle = diff(without(f.topLevel(), f.alloc));
        assertEquals(BEFORE_TREE.replace("UNCHANGED alloc", "REMOVED alloc"), f.render(middle.nodes()));
        DiffNode removed = middle.nodes().get(1);
        assertSame(f.alloc, removed.before());
        assertNull(removed.after());
        assertEquals(HostIrPrinter.headline(f.alloc), removed.headline());
        assertEquals(new DiffSummary(0, 1, 0, 10, 0), middle.summary());

        TreeDiff ends = diff(List.of(f.alloc, f.mm, f.loop));
        assertEquals(BEFORE_TREE.replace("UNCHANGED get", "REMOVED get").replace("UNCHANGED sync\n", "REMOVED sync\n"),
                f.render(ends.nodes()));
    }

    @Test
    void removedSubtreeIsRemovedThroughout() {
        TreeDiff d = diff(without(f.topLevel(), f.loop));
        assertEquals(BEFORE_TREE.replace("UNCHANGED", "REMOVED").replace("REMOVED get", "UNCHANGED get")
                .replace("REMOVED alloc", "UNCHANGED alloc").replace("REMOVED mm\n", "UNCHANGED mm\n")
                .replace("REMOVED sync\n", "UNCHANGED sync\n"), f.render(d.nodes()));
        assertEquals(new DiffSummary(0, 7, 0, 4, 0), d.summary());
    }

    @Test
    void removedComesBeforeAddedAtTheSamePlace() {
        HostNode dealloc = f.named("dealloc", f.h.deallocate(f.c));
        TreeDiff d = diff(List.of(f.get, dealloc, f.mm, f.loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED alloc\n", "REMOVED alloc\nADDED dealloc\n"), f.render(d.nodes()));
    }

    @Test
    void sameIdWithOtherFieldsIsChanged() {
        // The pass rewired the op to the slices: same node, new operands.
        HostOp sliced = new HostOp(f.mm.id(), new FusionOp.Matmul(f.cSlice, f.aSlice, f.w));
        TreeDiff d = diff(List.of(f.get, f.alloc, sliced, f.loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED mm\n", "CHANGED mm\n"), f.render(d.nodes()));
        DiffNode changed = d.nodes().get(2);
        assertEquals(DiffNode.Match.ID, changed.match());
        assertSame(f.mm, changed.before());
        assertSame(sliced, changed.after());
        assertEquals(HostIrPrinter.headline(sliced), changed.headline());
        assertNotEquals(HostIrPrinter.headline(f.mm), changed.headline());
        assertEquals(new DiffSummary(0, 0, 1, 10, 0), d.summary());
        assertTrue(d.changed());
    }

    @Test
    void rebuiltNodesWithNewIdsMatchByStructure() {
        HostNode get2 = f.named("get'", f.h.getCurrentStream(Stream.USER));
        ForLoop loop2 = f.rebuiltLoop();
        TreeDiff d = diff(List.of(get2, f.alloc, f.mm, loop2, f.sync));
        assertEquals(lines(
                "UNCHANGED get->get' by structure",
                "UNCHANGED alloc",
                "UNCHANGED mm",
                "UNCHANGED loop->loop' by structure",
                "  UNCHANGED setWorker->setWorker' by structure",
                "  UNCHANGED selA->selA' by structure",
                "  UNCHANGED selC->selC' by structure",
                "  UNCHANGED mmSlice->mmSlice' by structure",
                "  UNCHANGED setUser->setUser' by structure",
                "  UNCHANGED syncWorker->syncWorker' by structure",
                "UNCHANGED sync"), f.render(d.nodes()));
        assertFalse(d.changed(), "a rebuild without change is no change");
        assertEquals(new DiffSummary(0, 0, 0, 11, 0), d.summary());
    }

    @Test
    void equalStructuresPairInOrderAndIdsComeFirst() {
        HostNode userA = f.named("userA", f.h.synchronize(Stream.USER));
        HostNode worker = f.named("worker", f.h.synchronize(HostIrBuilder.WORKER_STREAM));
        HostNode userB = f.named("userB", f.h.synchronize(Stream.USER));
        HostNode user1 = f.named("user1", f.h.synchronize(Stream.USER));
        HostNode user2 = f.named("user2", f.h.synchronize(Stream.USER));
        TreeDiff rebuilt = TreeDiff.compare(f.program(List.of(userA, worker, userB)), f.program(List.of(user1, user2)));
        assertEquals(lines(
                "UNCHANGED userA->user1 by structure",
                "REMOVED worker",
                "UNCHANGED userB->user2 by structure"), f.render(rebuilt.nodes()));

        // userB keeps its id: it pairs by id, so userA (same structure) is the one removed.
        TreeDiff kept = TreeDiff.compare(f.program(List.of(userA, userB)), f.program(List.of(userB)));
        assertEquals(lines("REMOVED userA", "UNCHANGED userB"), f.render(kept.nodes()));
    }

    @Test
    void loopWhoseBodyChangedIsChanged() {
        // One body node removed, one changed in place, one added: the loop itself keeps its fields.
        HostOp rewired = new HostOp(f.mmSlice.id(), new FusionOp.Matmul(f.cSlice, f.aSlice, f.a));
        HostNode dealloc = f.named("dealloc", f.h.deallocate(f.aSlice));
        ForLoop loop = f.loop.withBody(List.of(f.setWorker, f.selA, f.selC, rewired, dealloc, f.syncWorker));
        TreeDiff d = diff(List.of(f.get, f.alloc, f.mm, loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop", "CHANGED loop")
                .replace("UNCHANGED mmSlice", "CHANGED mmSlice")
                .replace("  UNCHANGED setUser\n", "  REMOVED setUser\n  ADDED dealloc\n"), f.render(d.nodes()));
        assertEquals(new DiffSummary(1, 1, 2, 8, 0), d.summary());
    }

    @Test
    void ifThenElseBodiesAreDiffedSeparately() {
        Scalar mine = Scalar.eq(NamedScalar.STREAM_IDX, NamedScalar.RANK);
        HostNode copy = f.named("copy", f.h.op(new FusionOp.Set(f.cSlice, f.aSlice)));
        HostNode start = f.named("start", f.h.startCoalescing());
        IfThenElse branch = f.named("if", f.h.ifThenElse(mine, List.of(copy), List.of(start)));
        HostNode end = f.named("end", f.h.endCoalescing());
        IfThenElse grown = new IfThenElse(branch.id(), mine, List.of(copy), List.of(start, end));
        TreeDiff d = TreeDiff.compare(f.program(List.of(branch)), f.program(List.of(grown)));
        assertEquals(lines(
                "CHANGED if",
                "  UNCHANGED copy",
                "else:",
                "  UNCHANGED start",
                "  ADDED end"), f.render(d.nodes()));
        assertEquals(2, d.nodes().getFirst().bodies().size());
        assertEquals("IF Manual ( StreamIdx == deviceIdx.x ):", d.nodes().getFirst().headline());
    }

    @Test
    void reorderedNodesAreFlaggedMoved() {
        TreeDiff d = diff(List.of(f.sync, f.get, f.alloc, f.mm, f.loop));
        assertEquals("UNCHANGED sync moved\n" + BEFORE_TREE.replace("UNCHANGED sync\n", ""), f.render(d.nodes()));
        assertEquals(new DiffSummary(0, 0, 0, 11, 1), d.summary());
        assertTrue(d.changed(), "the order is part of the program");

        // Swapped inside the body: the loop changed, though each node is as it was.
        ForLoop swapped = f.loop.withBody(List.of(f.setWorker, f.selC, f.selA, f.mmSlice, f.setUser, f.syncWorker));
        TreeDiff inner = diff(List.of(f.get, f.alloc, f.mm, swapped, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop", "CHANGED loop")
                .replace("  UNCHANGED selA\n  UNCHANGED selC\n", "  UNCHANGED selC moved\n  UNCHANGED selA\n"),
                f.render(inner.nodes()));
    }

    @Test
    void removedNodeFollowsItsUnmovedNeighbourNotAMovedOne() {
        // Before: get, alloc, mm, loop, sync. After: mm, loop, sync, get. get moved to the end; alloc, which stood
        // after get, is shown before mm, the next node that stayed in order.
        TreeDiff d = diff(List.of(f.mm, f.loop, f.sync, f.get));
        String body = BEFORE_TREE.substring(BEFORE_TREE.indexOf("UNCHANGED mm"));
        assertEquals("REMOVED alloc\n" + body + "UNCHANGED get moved\n", f.render(d.nodes()));
    }

    @Test
    void nodeHoistedOutOfTheLoopIsMovedNotRemovedAndAdded() {
        ForLoop loop = f.loop.withBody(without(f.loop.body(), f.selA));
        TreeDiff d = diff(List.of(f.get, f.alloc, f.mm, f.selA, loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop\n", "UNCHANGED selA from elsewhere moved\nCHANGED loop\n")
                .replace("  UNCHANGED selA\n", ""), f.render(d.nodes()));
        DiffNode moved = d.nodes().get(3);
        assertSame(f.selA, moved.before());
        assertSame(f.selA, moved.after());
        assertEquals(new DiffSummary(0, 0, 1, 10, 1), d.summary());
        assertTrue(d.changed());
    }

    @Test
    void opMovedIntoANewLoopBodyIsMoved() {
        // what StreamParallelType does to an op it puts in a stream loop: the op keeps its id in the new body
        ForLoop streams = f.named("loop2", f.h.forStreams(f.c.axis(0), List.of(f.mm)));
        TreeDiff d = diff(List.of(f.get, f.alloc, streams, f.loop, f.sync));
        assertEquals(BEFORE_TREE.replace("UNCHANGED mm\n", "ADDED loop2\n  UNCHANGED mm from elsewhere moved\n"),
                f.render(d.nodes()));
        assertEquals(new DiffSummary(1, 0, 0, 11, 1), d.summary());
    }

    @Test
    void movedNodeWhoseFieldsChangedIsChangedAndMoved() {
        Synchronize other = new Synchronize(f.sync.id(), HostIrBuilder.WORKER_STREAM);
        ForLoop loop = f.loop.withBody(with(f.loop.body(), 6, other));
        TreeDiff d = diff(List.of(f.get, f.alloc, f.mm, loop));
        assertEquals(BEFORE_TREE.replace("UNCHANGED loop", "CHANGED loop")
                .replace("UNCHANGED sync\n", "").replace("  UNCHANGED syncWorker\n",
                        "  UNCHANGED syncWorker\n  CHANGED sync from elsewhere moved\n"), f.render(d.nodes()));
    }

    @Test
    void loopMovedWithItsBodyIsOneMove() {
        ForLoop outer = f.named("outer", f.h.forStreams(f.c.axis(0), List.of(f.loop)));
        TreeDiff d = diff(List.of(f.get, f.alloc, f.mm, outer, f.sync));
        String body = BEFORE_TREE.substring(BEFORE_TREE.indexOf("  UNCHANGED setWorker"),
                BEFORE_TREE.indexOf("UNCHANGED sync\n"));
        assertEquals(lines("UNCHANGED get", "UNCHANGED alloc", "UNCHANGED mm", "ADDED outer",
                "  UNCHANGED loop from elsewhere moved") + body.indent(2) + "UNCHANGED sync\n", f.render(d.nodes()));
        assertFalse(f.render(d.nodes()).contains("REMOVED"), "nothing shows as removed");
    }

    @Test
    void anIdAddedTwiceIsNoMove() {
        // two added nodes claim the removed node's id: which one it became is unknown, so nothing is paired
        ForLoop first = f.h.forStreams(f.c.axis(0), List.of(f.mm));
        ForLoop second = f.h.forStreams(f.c.axis(0), List.of(f.mm));
        TreeDiff d = diff(List.of(f.get, f.alloc, first, second, f.loop, f.sync));
        String tree = f.render(d.nodes());
        assertTrue(tree.contains("REMOVED mm") && !tree.contains("from elsewhere"), tree);
    }

    @Test
    void containerLevelChangesAreFlagged() {
        HostIrContainer before = f.before();
        HostIrContainer otherOutputs = new HostIrContainer(before.inputs(), List.of(f.c, f.a), before.topLevel(),
                before.hostUnits(), before.symbols(), before.counters(), before.provenance());
        TreeDiff d = TreeDiff.compare(before, otherOutputs);
        assertTrue(d.signatureChanged());
        assertFalse(d.summary().hasChanges());
        assertTrue(d.changed());
    }

    @Test
    void diffNodeRejectsInconsistentKinds() {
        assertThrows(IllegalArgumentException.class,
                () -> new DiffNode(DiffKind.ADDED, DiffNode.Match.ID, false, null, f.get, "x", List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new DiffNode(DiffKind.CHANGED, DiffNode.Match.ID, false, f.get, null, "x", List.of()));
    }
}
