package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.ForwardLocalShardPass;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;

/**
 * ForwardLocalShard on seed 000's P2P AG+matmul: the owning iteration multiplies its own shard (no Set into the
 * gathered buffer), the receiving iteration multiplies what it received, and both ranks' results equal the
 * unsharded reference; where the gathered tensor is a fusion output the pass leaves the program alone.
 */
class ForwardLocalShardTest {
    private static HostIrContainer lower(String example, int rank, Map<String, String> options) throws Exception {
        return Pipeline.standard().lower(Runs.load(example, 2, Map.of()).fusion(),
                new LoweringContext(rank, 2, SeedGeneration.options(options)));
    }

    private static IfThenElse onlyIf(ForLoop loop) {
        List<IfThenElse> ifs = loop.body().stream().filter(IfThenElse.class::isInstance).map(IfThenElse.class::cast).toList();
        assertEquals(1, ifs.size(), "one IF in the allgather loop");
        return ifs.getFirst();
    }

    private static ForLoop allgatherLoop(HostIrContainer p) {
        return p.topLevel().stream().filter(ForLoop.class::isInstance).map(ForLoop.class::cast)
                .filter(l -> l.body().stream().anyMatch(IfThenElse.class::isInstance)).findFirst().orElseThrow();
    }

    @Test
    void theOwningIterationMultipliesItsShardAndTheCopyIsGone() throws Exception {
        for (String offset : List.of("false", "true")) {
            Map<String, String> options = Map.of("allgather", "p2p", "offsetStreamIndexingByRank", offset,
                    "forwardLocalShard", "true");
            for (int rank = 0; rank < 2; rank++) {
                HostIrContainer before = lower("seeds/ag_matmul_p2p", rank, Map.of("allgather", "p2p",
                        "offsetStreamIndexingByRank", offset));
                HostIrContainer after = lower("seeds/ag_matmul_p2p", rank, options);
                IfThenElse was = onlyIf(allgatherLoop(before));
                FusionOp.Set copy = (FusionOp.Set) ((HostOp) was.thenBody().get(1)).op();
                IfThenElse ite = onlyIf(allgatherLoop(after));

                // then: the shard's view, the output slice's view, matmul(shard, B)
                assertEquals(3, ite.thenBody().size(), ite.thenBody().toString());
                HirAliasSelect shard = assertInstanceOf(HirAliasSelect.class, ite.thenBody().get(0));
                assertEquals(copy.input().id(), shard.out().id());
                assertInstanceOf(HirAliasSelect.class, ite.thenBody().get(1));
                FusionOp.Matmul local = (FusionOp.Matmul) ((HostOp) ite.thenBody().get(2)).op();
                assertEquals(shard.out().id(), local.a().id(), "the owning iteration reads its shard");

                // else: the coalesced recv/send and wait as before, then the same two nodes on the received slice
                List<HostNode> other = ite.elseBody();
                assertTrue(other.stream().anyMatch(n -> n instanceof P2PCommunication p
                        && p.type() == P2PCommunication.Type.RECV && p.buffer().id() == copy.output().id()));
                FusionOp.Matmul remote = (FusionOp.Matmul) ((HostOp) other.getLast()).op();
                assertEquals(copy.output().id(), remote.a().id(), "the other iterations read what they received");
                assertEquals(local.output().id(), remote.output().id());

                assertFalse(after.allNodes().stream().anyMatch(n -> n instanceof HostOp o
                        && o.op() instanceof FusionOp.Set), "no copy into the gathered buffer is left");
                assertFalse(allgatherLoop(after).body().stream().anyMatch(HostOp.class::isInstance),
                        "no op is left after the IF");
                assertEquals(before.allNodes().stream().filter(n -> n instanceof HostOp o
                        && o.op() instanceof FusionOp.Matmul).count() + 1, after.allNodes().stream()
                        .filter(n -> n instanceof HostOp o && o.op() instanceof FusionOp.Matmul).count());
            }
        }
    }

    @Test
    void forwardedSchedulesMatchTheUnshardedReference() throws Exception {
        for (String offset : List.of("false", "true")) {
            for (String streams : List.of("1", "4")) {
                RunResult r = Runs.run("seeds/ag_matmul_p2p", 2, Map.of("allgather", "p2p", "numberOfStreams",
                        streams, "offsetStreamIndexingByRank", offset, "forwardLocalShard", "true"));
                assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                assertTrue(r.programs().values().stream().allMatch(p -> p.allNodes().stream()
                        .noneMatch(n -> n instanceof HostOp o && o.op() instanceof FusionOp.Set)));
            }
        }
    }

    @Test
    void offByDefaultAndNothingToDoWhereTheGatheredTensorIsAnOutput() throws Exception {
        assertFalse(SeedGeneration.DEFAULTS.forwardLocalShard());
        assertEquals(lower("seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p")),
                lower("seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p", "forwardLocalShard", "false")));
        // seed allgather_p2p: the gathered tensor is the fusion's output, so its own slice must be copied
        Map<String, String> p2p = Map.of("allgather", "p2p");
        HostIrContainer plain = lower("seeds/allgather_p2p", 0, p2p);
        HostIrContainer forwarded = lower("seeds/allgather_p2p", 0, Map.of("allgather", "p2p",
                "forwardLocalShard", "true"));
        assertEquals(plain, forwarded);
        ForwardLocalShardPass pass = new ForwardLocalShardPass();
        assertSame(plain, pass.run(plain, new LoweringContext(0, 2, SeedGeneration.options(Map.of("forwardLocalShard",
                "true")))));
    }
}
