package org.hostir.studio.tests.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.ir.print.TensorMentions;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * The rule by which a tensor selected in the fusion editor is found in the Lowering view (issue 35, driven by hand):
 * seed 000's {@code tv1} was shown as {@code ALLOCATE T2}, the first node lowered from the matmul that reads it; the
 * node a person looks for names {@code T1}.
 */
class TensorMentionsTest {
    private record Lowered(Fusion fusion, HostIrContainer program) {
        TensorView tensor(String label) {
            return fusion.tensors().stream().filter(t -> t.label().equals(label)).findFirst().orElseThrow();
        }

        /** The former rule: a node lowered from an op that reads or writes {@code tv}. */
        Predicate<HostNode> byOp(TensorView tv) {
            return n -> {
                Integer op = program.provenance().get(n.id());
                if (op == null) return false;
                FusionOp o = fusion.ops().get(op);
                return o.output().id() == tv.id() || o.inputs().stream().anyMatch(t -> t.id() == tv.id());
            };
        }

        List<String> rowsFor(TensorView tv) {
            return TensorMentions.rowsFor(program.allNodes(), HostIrPrinter::headline, tv, byOp(tv)).stream()
                    .map(HostIrPrinter::headline).toList();
        }
    }

    private static Lowered seed000(int rank) throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(TestPaths.repo("examples", "seeds",
                "ag_matmul_p2p.fusion")), 2, Map.of());
        PassTrace.RankTrace trace = Engine.lower(loaded, LoweringOptions.DEFAULTS, List.of(rank)).rank(rank);
        Fusion last = null;
        for (PassTrace.Step s : trace.steps()) {
            if (s.after() instanceof Snapshot.OfFusion(Fusion f, _)) last = f;
        }
        return new Lowered(last, ((Snapshot.OfHost) trace.result()).container());
    }

    @Test
    void anInputReadByTheMatmulIsFoundAtTheMatmulNotAtTheAllocationOfItsOutput() throws Exception {
        Lowered p = seed000(0);
        TensorView tv1 = p.tensor("tv1");
        String before = p.program().allNodes().stream().filter(p.byOp(tv1)).map(HostIrPrinter::headline)
                .findFirst().orElseThrow();
        assertTrue(before.startsWith("T2_g_float") && before.contains("ALLOCATE"),
                "the op rule alone starts at the allocation of the matmul's output: " + before);
        List<String> rows = p.rowsFor(tv1);
        assertEquals(1, rows.size(), "one node names T1: " + rows);
        assertTrue(rows.get(0).contains("= matmul(") && rows.get(0).contains("T1_g_float["), rows.get(0));
    }

    @Test
    void eachTensorOfTheSeedIsFoundWhereItsNameIsPrinted() throws Exception {
        for (int rank : List.of(0, 1)) {
            Lowered p = seed000(rank);
            TensorView tv0 = p.tensor("tv0");
            List<String> rows0 = p.rowsFor(tv0);
            assertTrue(rows0.stream().anyMatch(r -> r.contains("HirAliasSelect( T0_g_float")), "the slice: " + rows0);
            assertTrue(rows0.stream().anyMatch(r -> r.contains("type=send, buffer=T0_g_float")), "the send: " + rows0);
            rows0.forEach(r -> assertTrue(TensorMentions.names(r, tv0), r));
            List<String> rows2 = p.rowsFor(p.tensor("tv2"));
            assertTrue(rows2.stream().anyMatch(r -> r.contains("ALLOCATE(buffer=T2_g_float")), "allocated: " + rows2);
            assertTrue(rows2.stream().anyMatch(r -> r.contains("HirAliasSelect( T2_g_float")), "sliced: " + rows2);
        }
    }

    @Test
    void aNameIsAWholeTensorNameAndNoneFallsBackToTheNodesOfItsOps() throws Exception {
        Lowered p = seed000(0);
        TensorView tv1 = p.tensor("tv1");
        assertTrue(TensorMentions.names("T6 = matmul(T5_l_float[iS14{i2}], T1_g_float[iS3{i4}])", tv1));
        assertFalse(TensorMentions.names("T11_l_float[iS14{i2}] = Set( T4_l_float[iS12{i2}] )", tv1));
        assertFalse(TensorMentions.names("ALLOCATE(buffer=XT1_g_float[iS3{i4}])", tv1));
        // a tensor no line names (here: the program without its matmul) falls back to the nodes of its ops
        List<HostNode> noMatmul = p.program().allNodes().stream()
                .filter(n -> !HostIrPrinter.headline(n).contains("= matmul(")).toList();
        List<HostNode> rows = TensorMentions.rowsFor(noMatmul, HostIrPrinter::headline, tv1, p.byOp(tv1));
        assertEquals(noMatmul.stream().filter(p.byOp(tv1)).toList(), rows);
        assertFalse(rows.isEmpty(), "the op rule finds the matmul's other nodes");
    }
}
