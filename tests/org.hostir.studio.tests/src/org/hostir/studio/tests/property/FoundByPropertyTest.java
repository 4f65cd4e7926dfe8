package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.junit.jupiter.api.Test;

/**
 * The wrong answers {@link LoweredImpliesCorrectTest} found, shrunk, kept as regressions: each validates now, and
 * its program has the shape nvFuser gives it.
 */
class FoundByPropertyTest {
    private static FusionSpec spec(int devices, List<FusionSpec.Tensor> tensors, List<FusionSpec.Op> ops,
                                   List<String> outputs) {
        return new FusionSpec(0, devices, tensors, ops, List.of("x"), outputs, Map.of());
    }

    private static FusionSpec.Axis axis(int extent, String iter, String parallel) {
        return new FusionSpec.Axis(extent, iter, parallel);
    }

    private static String lowered(FusionSpec s, int rank) throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(s.text(), "found.fusion"), s.devices(), Map.of());
        return HostIrPrinter.print(Engine.lowerRank(loaded, LoweringOptions.DEFAULTS, rank));
    }

    /**
     * A reduce-scatter whose scattered axis is not outermost ({@code [2, DIDx 2, 2] -> [2, r2, DIDx 2]}) gave a
     * wrong answer: the collective scattered along the outermost axis. nvFuser's ReorderShardedAxisPass permutes the
     * scattered axis out first (its own comment's example); so does ours now.
     */
    @Test
    void reduceScatterOnAnInnerAxis() throws Exception {
        List<Integer> mesh = List.of(1, 0);
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "DIDx"),
                        axis(2, "iteration", "Serial")), mesh),
                new FusionSpec.Tensor("y", List.of(axis(2, "iteration", "Serial"), axis(2, "reduction", "Serial"),
                        axis(2, "iteration", "DIDx")), mesh)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [1]")), List.of("y"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        String p = lowered(s, 0);
        assertTrue(p.indexOf("Set.Permute") < p.indexOf("type=ReduceScatter")
                && p.lastIndexOf("Set.Permute") > p.indexOf("type=ReduceScatter"), p);
    }

    /**
     * {@code y[rS, Stream, i] = sum(x)}, then {@code z[i, Stream] = set(y)}: the two Stream axes have the same extent
     * but are different dimensions (y's Stream axis is z's first axis). Merged into one loop, z was sliced along
     * the wrong axis. nvFuser merges only when the axes are mapped (canMergeWithPreviousForLoop): two loops.
     */
    @Test
    void streamLoopsMergeOnlyOverMappedAxes() throws Exception {
        FusionSpec s = spec(1, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Serial")), null),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Stream"),
                        axis(2, "iteration", "Serial")), null),
                new FusionSpec.Tensor("z", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Stream")),
                        null)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]"),
                        new FusionSpec.Op("set", List.of("y"), "z", "")), List.of("z"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        String p = lowered(s, 0);
        assertEquals(4, p.lines().filter(l -> l.startsWith("  FOR StreamIdx")).count(), p);
    }

    /**
     * {@code y[rS, Stream, i] = sum(x[i, i, DIDx])}: lowering decomposes it into an allgather of x inside the stream
     * loop, whose slice {@code [i, DIDx]} has its gathered axis inner; the collective gathered the outer one (a wrong
     * answer). The gathered axis is now permuted out and back inside the loop too (ReorderShardedAxisPass, branch
     * conf-comm; this branch had refused it before the merge).
     */
    @Test
    void anInnerGatherInsideAStreamLoopValidates() {
        List<Integer> mesh = List.of(0, 1);
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "DIDx")), mesh),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Stream"),
                        axis(2, "iteration", "Serial")), mesh)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]")), List.of("y"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /**
     * {@code y[r2, 2, DIDx 2] = sum(x)} on {0 1}, then {@code z = set(y)} on {0}: a gather whose input keeps a
     * reduction axis in front of its DIDx axis. The permute around it indexed all axes instead of the run-time ones
     * and lowering crashed (ArrayIndexOutOfBoundsException, after the merge of conf-comm's in-loop permute).
     */
    @Test
    void aGatherFromATensorWithAReductionAxisValidates() {
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Serial")), List.of(0)),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "DIDx")), List.of(0, 1)),
                new FusionSpec.Tensor("z", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial")),
                        List.of(0))),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]"),
                        new FusionSpec.Op("set", List.of("y"), "z", "")), List.of("z"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }
}
