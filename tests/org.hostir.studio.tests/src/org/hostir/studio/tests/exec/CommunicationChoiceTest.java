package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, observations 1 to 4: the communications of a resharding set or reduction as nvFuser's
 * convertSingleOpToCommunication and ConvertOpToCommunication produce them (teams in mesh order with the root
 * appended, one Gather or Reduce per receiver, one-device meshes unsharded, SendRecv pairs between overlapping
 * meshes, an Allocate before each communication where the rank holds the output, the same list on every
 * involved rank), checked on the printed program of every rank, and the runs of those programs validated
 * against the unsharded reference on the CPU backend (a rank outside a team skips that communication).
 */
class CommunicationChoiceTest {
    private static final Pattern COMMUNICATION = Pattern.compile(
            "^Communication \\d+ \\(type=(\\w+), team=\\(([\\d ]*)\\)(?:, root=(\\d+))?");

    /** The communication nodes of one rank's printed program: {@code Allocate}, {@code Gather (1 2 0) root 0}, ... */
    private static List<String> communicationNodes(String example, int devices, int rank) {
        CliRun r = CliRun.of("lower", RepoPaths.repo().resolve("examples/communication/" + example + ".fusion")
                .toString(), "--devices", String.valueOf(devices), "--rank", String.valueOf(rank));
        assertEquals(0, r.code(), r.err());
        List<String> nodes = new ArrayList<>();
        for (String line : r.out().lines().map(String::strip).toList()) {
            Matcher m = COMMUNICATION.matcher(line);
            if (m.find()) {
                nodes.add(m.group(1) + " (" + m.group(2) + ")" + (m.group(3) == null ? "" : " root " + m.group(3)));
            } else if (line.contains("= ALLOCATE(")) {
                nodes.add("Allocate");
            } else if (line.startsWith("Wait Communication")) {
                nodes.add("Wait");
            }
        }
        return nodes;
    }

    private static void assertValidates(String example, int devices) throws Exception {
        RunResult r = Runs.run("communication/" + example, devices, Map.of());
        assertTrue(r.validation().orElseThrow().passed(), example + ": " + r.validation().get().line());
    }

    private static List<String> allocatingEach(List<String> communications) {
        List<String> out = new ArrayList<>();
        for (String c : communications) out.addAll(List.of("Allocate", c, "Wait"));
        return out;
    }

    private static List<String> each(List<String> communications) {
        List<String> out = new ArrayList<>();
        for (String c : communications) out.addAll(List.of(c, "Wait"));
        return out;
    }

    /** Observation 1: lowerToGather, one Gather per receiving device, the sending mesh plus that root. */
    @Test
    void aGatherIntoTwoReceiversIsOneGatherPerReceiver() throws Exception {
        List<String> gathers = List.of("Gather (1 2 0) root 0", "Gather (1 2) root 2");
        assertEquals(allocatingEach(gathers), communicationNodes("gather_two_receivers", 3, 0));
        assertEquals(each(gathers), communicationNodes("gather_two_receivers", 3, 1), "a sender holds no output");
        assertEquals(allocatingEach(gathers), communicationNodes("gather_two_receivers", 3, 2));
        assertValidates("gather_two_receivers", 3);
        assertValidates("gather_two_receivers", 4);
    }

    /** lowerToReduce likewise: one Reduce per receiving device, the root appended where the senders lack it. */
    @Test
    void aReduceIntoTwoReceiversIsOneReducePerReceiver() throws Exception {
        List<String> reduces = List.of("Reduce (1 2 0) root 0", "Reduce (1 2) root 2");
        assertEquals(allocatingEach(reduces), communicationNodes("reduce_two_receivers", 3, 0));
        assertEquals(each(reduces), communicationNodes("reduce_two_receivers", 3, 1));
        assertEquals(allocatingEach(reduces), communicationNodes("reduce_two_receivers", 3, 2));
        assertValidates("reduce_two_receivers", 3);
    }

    /** Observation 2: lowerToBroadcast's team is the receiving mesh in its order, then the root; not sorted. */
    @Test
    void aBroadcastTeamIsTheReceivingMeshWithTheRootAppended() throws Exception {
        String broadcast = "Broadcast (1 2 3 0) root 0";
        assertEquals(each(List.of(broadcast)), communicationNodes("broadcast_root_outside", 4, 0));
        for (int rank = 1; rank < 4; rank++) {
            assertEquals(allocatingEach(List.of(broadcast)), communicationNodes("broadcast_root_outside", 4, rank));
        }
        assertValidates("broadcast_root_outside", 4);
    }

    /** Observation 3: a one-device mesh is unsharded for convertSingleOpToCommunication, so {0} to {1} broadcasts. */
    @Test
    void aShardedSetBetweenOneDeviceMeshesIsABroadcast() throws Exception {
        String broadcast = "Broadcast (1 0) root 0";
        assertEquals(each(List.of(broadcast)), communicationNodes("send_recv_one_device", 2, 0));
        assertEquals(allocatingEach(List.of(broadcast)), communicationNodes("send_recv_one_device", 2, 1));
        assertValidates("send_recv_one_device", 2);
    }

    /**
     * Observation 4: lowerToBroadcastOrSendRecv pairs the i-th devices, (1 1) included; every rank the resharding
     * involves keeps both, each after its Allocate where the rank holds the output; a rank outside both meshes
     * has nothing.
     */
    @Test
    void sendRecvBetweenOverlappingMeshesKeepsEveryPairOnEveryInvolvedRank() throws Exception {
        List<String> pairs = List.of("SendRecv (1 1) root 1", "SendRecv (2 0) root 2");
        assertEquals(allocatingEach(pairs), communicationNodes("send_recv_overlapping", 4, 0));
        assertEquals(allocatingEach(pairs), communicationNodes("send_recv_overlapping", 4, 1));
        assertEquals(each(pairs), communicationNodes("send_recv_overlapping", 4, 2));
        assertEquals(List.of(), communicationNodes("send_recv_overlapping", 4, 3));
        assertValidates("send_recv_overlapping", 3);
    }

    /** postSendRecv: only the team member that is not the root receives, though both devices hold the output. */
    @Test
    void eachSendRecvDeliversToItsReceiverOnly() throws Exception {
        List<String> pairs = List.of("SendRecv (1 0) root 1", "SendRecv (0 1) root 0");
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(allocatingEach(pairs), communicationNodes("send_recv_swapped", 2, rank));
        }
        assertValidates("send_recv_swapped", 2);
    }

    /**
     * Inside a stream loop the slices of a tensor exist only where its mesh has the rank; a rank outside it
     * slices nothing and posts its side of each communication without that buffer (these runs used to stop with
     * no progress: a receiver sliced an input it does not hold).
     */
    @Test
    void communicationsBetweenMeshesInsideAStreamLoopRun() throws Exception {
        for (String example : List.of("stream_loop_between_meshes", "stream_loop_from_one_device")) {
            for (Map<String, String> options : List.of(Map.of("numberOfStreams", "1"), Map.of("numberOfStreams", "3",
                    "insertDeallocations", "true"))) {
                RunResult r = Runs.run("communication/" + example, 4, options);
                assertTrue(r.validation().orElseThrow().passed(), example + " " + options + ": "
                        + r.validation().get().line());
            }
        }
        List<String> inLoop = communicationNodes("stream_loop_between_meshes", 3, 0);
        assertEquals(List.of("Gather (1 2 0) root 0", "Gather (1 2) root 2", "Reduce (1 2 0) root 0",
                "Reduce (1 2) root 2", "SendRecv (1 1) root 1", "SendRecv (2 0) root 2"),
                inLoop.stream().filter(n -> !n.equals("Allocate") && !n.equals("Wait")).toList());
    }

    /**
     * A gather or scatter in a stream loop whose sharded axis is inner once the loop has sliced the Stream axis
     * away is permuted as outside a loop (the allgather scattered the wrong axis, the scatter hung).
     */
    @Test
    void aCollectiveInAStreamLoopOnAnInnerAxisIsPermutedOutFirst() throws Exception {
        for (int devices : new int[] {2, 4}) {
            for (String allgather : List.of("p2p", "collective")) {
                RunResult r = Runs.run("communication/stream_loop_inner_axis", devices, Map.of("allgather", allgather));
                assertTrue(r.validation().orElseThrow().passed(), devices + " " + r.validation().get().line());
            }
        }
        CliRun lowered = CliRun.of("lower", RepoPaths.repo().resolve(
                "examples/communication/stream_loop_inner_axis.fusion").toString());
        assertEquals(4, lowered.out().lines().filter(l -> l.contains("= Set.Permute(")).count(), lowered.out());
    }

    /**
     * The evaluator's side (postSingleCommunication, postSendRecv): rank 0 posts only (2 0), rank 2 only (2 0),
     * and rank 1 turns (1 1) into a copy and skips (2 0); no rank records a communication it is not part of.
     */
    @Test
    void aRankSkipsTheCommunicationsItIsNotPartOf() throws Exception {
        RunResult r = Runs.run("communication/send_recv_overlapping", 3, Map.of());
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
        assertEquals(List.of("SendRecv"), names(r, 0, EventKind.COMMUNICATION));
        assertEquals(List.of(), names(r, 1, EventKind.COMMUNICATION));
        assertEquals(List.of("SendRecv"), names(r, 1, EventKind.COPY), "(1 1) is a local copy on device 1");
        assertEquals(List.of("SendRecv"), names(r, 2, EventKind.COMMUNICATION));
    }

    private static List<String> names(RunResult r, int rank, EventKind kind) {
        return r.timeline().events().stream().filter(e -> e.rank() == rank && e.kind() == kind)
                .map(TimelineEvent::name).toList();
    }
}
