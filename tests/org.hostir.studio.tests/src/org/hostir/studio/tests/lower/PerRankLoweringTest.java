package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.Wait;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** Each rank gets its own program: teams, roots and peers depend on the rank, and ranks outside a mesh skip. */
class PerRankLoweringTest {
    private static final DeviceMesh M01 = DeviceMesh.of(0, 1);
    private static final DeviceMesh M0 = DeviceMesh.of(0);
    private static final DeviceMesh M1 = DeviceMesh.of(1);
    private static final DeviceMesh M0123 = DeviceMesh.of(0, 1, 2, 3);

    private static HostIrContainer lower(Fusion f, int rank, int devices) {
        return Pipeline.standard().lower(f, new LoweringContext(rank, devices, SeedGeneration.DEFAULTS));
    }

    private static List<Communication> communications(HostIrContainer c) {
        return c.allNodes().stream().filter(n -> n instanceof Communication).map(n -> (Communication) n).toList();
    }

    private static List<String> kinds(List<HostNode> nodes) {
        return nodes.stream().map(n -> n.getClass().getSimpleName()).toList();
    }

    @Test
    void gatherFromTwoDevicesToOne() {
        Fusion f = TestFusions.setBetween(M01, M0, true, false);
        for (int rank : List.of(0, 1)) {
            HostIrContainer c = lower(f, rank, 2);
            Communication g = communications(c).get(0);
            assertEquals(CommunicationType.GATHER, g.type());
            assertEquals(List.of(0, 1), g.team());
            assertEquals(Scalar.constant(0), g.root());
            // only the root holds the output, so only it allocates
            List<String> expected = rank == 0 ? List.of("Allocate", "Communication", "Wait")
                    : List.of("Communication", "Wait");
            assertEquals(expected, kinds(c.topLevel()), "rank " + rank);
        }
    }

    @Test
    void scatterFromOneDeviceToFour() {
        Fusion f = TestFusions.setBetween(M0, M0123, false, true);
        for (int rank = 0; rank < 4; rank++) {
            HostIrContainer c = lower(f, rank, 4);
            Communication s = communications(c).get(0);
            assertEquals(CommunicationType.SCATTER, s.type());
            assertEquals(List.of(0, 1, 2, 3), s.team());
            assertEquals(Scalar.constant(0), s.root());
            assertTrue(c.topLevel().get(0) instanceof Allocate, "every receiver allocates its shard");
        }
    }

    @Test
    void singleDeviceMeshesBroadcastWhetherOrNotTheirAxisIsDidx() {
        // nvFuser's convertSingleOpToCommunication counts a tensor on a one-device mesh as unsharded, so both
        // sets are lowerToBroadcast's: team = the receiving mesh, then the root, which it lacks
        for (boolean sharded : List.of(false, true)) {
            Fusion f = TestFusions.setBetween(M0, M1, sharded, sharded);
            Communication b = communications(lower(f, 1, 2)).get(0);
            assertEquals(CommunicationType.BROADCAST, b.type(), "sharded " + sharded);
            assertEquals(List.of(1, 0), b.team());
            assertEquals(Scalar.constant(0), b.root(), "the root is the producer's first device");
            assertEquals(List.of("Communication", "Wait"), kinds(lower(f, 0, 2).topLevel()),
                    "the sender holds no output: no Allocate");
            assertEquals(List.of("Allocate", "Communication", "Wait"), kinds(lower(f, 1, 2).topLevel()));
        }
    }

    @Test
    void ranksOutsideEveryMeshSkipTheGroup() {
        Fusion f = TestFusions.setBetween(M0, M1, true, true);
        HostIrContainer rank2 = lower(f, 2, 3);
        assertTrue(rank2.topLevel().isEmpty(), "device 2 takes no part: " + rank2.topLevel());
    }

    @Test
    void reduceToOneDeviceAndAllreduceOnTheSameMesh() {
        Communication reduce = communications(lower(TestFusions.reduceBetween(M01, M0), 1, 2)).get(0);
        assertEquals(CommunicationType.REDUCE, reduce.type());
        assertEquals(Scalar.constant(0), reduce.root());
        Communication allreduce = communications(lower(TestFusions.reduceBetween(M01, M01), 1, 2)).get(0);
        assertEquals(CommunicationType.ALLREDUCE, allreduce.type());
        assertEquals(List.of(0, 1), allreduce.team());
    }

    @Test
    void p2pAllgatherPeersAreTheLoopIndexAndTheLocalCopyIsPredicatedOnTheRank() {
        HostIrContainer c = lower(TestFusions.agMatmulP2p(4), 3, 4);
        IfThenElse branch = (IfThenElse) c.allNodes().stream().filter(n -> n instanceof IfThenElse).findFirst()
                .orElseThrow();
        assertEquals(Scalar.eq(NamedScalar.STREAM_IDX, NamedScalar.RANK), branch.predicate());
        List<P2PCommunication> p2p = branch.elseBody().stream().filter(n -> n instanceof P2PCommunication)
                .map(n -> (P2PCommunication) n).toList();
        assertEquals(List.of(P2PCommunication.Type.RECV, P2PCommunication.Type.SEND),
                p2p.stream().map(P2PCommunication::type).toList());
        assertTrue(p2p.stream().allMatch(p -> p.peer().equals(NamedScalar.STREAM_IDX)));
        Wait wait = (Wait) branch.elseBody().get(branch.elseBody().size() - 1);
        assertEquals(branch.elseBody().get(3).id(), wait.communicationId(), "Wait names the EndCoalescing");
    }

    @Test
    void offsetIndexingStartsAtTheOwnRank() {
        LoweringOptions offset = SeedGeneration.options(java.util.Map.of("offsetStreamIndexingByRank", "true"));
        HostIrContainer c = Pipeline.standard().lower(TestFusions.agMatmulP2p(4), new LoweringContext(1, 4, offset));
        IfThenElse branch = (IfThenElse) c.allNodes().stream().filter(n -> n instanceof IfThenElse).findFirst()
                .orElseThrow();
        Scalar index = Scalar.mod(Scalar.add(NamedScalar.RANK, NamedScalar.STREAM_IDX),
                ((Extent) TestFusions.agMatmulP2p(4).inputs().get(0).axis(0).extent()));
        assertEquals(Scalar.eq(index, NamedScalar.RANK), branch.predicate());
        List<P2PCommunication> p2p = branch.elseBody().stream().filter(n -> n instanceof P2PCommunication)
                .map(n -> (P2PCommunication) n).toList();
        assertEquals(index, p2p.get(0).peer(), "receive slice (rank + i) from its owner");
        Extent d = (Extent) TestFusions.agMatmulP2p(4).inputs().get(0).axis(0).extent();
        assertEquals(Scalar.mod(Scalar.add(Scalar.sub(NamedScalar.RANK, NamedScalar.STREAM_IDX), d), d),
                p2p.get(1).peer(), "send the own shard to (rank - i), who wants it in the same iteration");
    }

    @Test
    void offsetIndexingDoesNotReorderCollectivesWhichMatchByOrder() {
        LoweringOptions offset = SeedGeneration.options(java.util.Map.of("offsetStreamIndexingByRank", "true",
                "allgather", "broadcast"));
        HostIrContainer c = Pipeline.standard().lower(TestFusions.agMatmulP2p(4), new LoweringContext(1, 4, offset));
        Communication b = communications(c).get(0);
        assertEquals(CommunicationType.BROADCAST, b.type());
        assertEquals(NamedScalar.STREAM_IDX, b.root(), "every rank must agree on the root of each broadcast");
    }
}
