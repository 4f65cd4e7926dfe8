package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.NotExecutableNodeException;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * nvFuser's tests/cpp/test_multidevice_dispatch_combine.cpp (81c4b22fd) ported to the CPU backend, at 2, 4 and 8
 * devices: DispatchCombineTop1 (lines 30-121), DispatchOnlyTop1 (123-223, its expectation written out instead of
 * calling doMoeDispatch again), CombineOnlyTop1 (225-309); and tests/python/multidevice/test_expert_parallel.py's
 * checks on a seeded random routing (lines 92-157, 187-189).
 */
class MoeDispatchCombineTest {
    /** kNumExpertsPerRank, kNumTokens, kHidden (test lines 42-45). */
    private static final int PER_RANK = 2;
    private static final int TOKENS = 4;
    private static final int HIDDEN = 4;

    /** x = arange(T * H).reshape(T, H) + rank * 1000 (test lines 100-102). */
    private static DenseTensor x(int rank, int tokens) {
        float[] v = new float[tokens * HIDDEN];
        for (int i = 0; i < v.length; i++) v[i] = i + rank * 1000f;
        return DenseTensor.of(DataType.FLOAT, new long[] {tokens, HIDDEN}, v);
    }

    /** topk_weights = arange(T).reshape(T, 1) + rank (test lines 104-106). */
    private static DenseTensor weights(int rank, int tokens) {
        float[] v = new float[tokens];
        for (int i = 0; i < tokens; i++) v[i] = i + rank;
        return DenseTensor.of(DataType.FLOAT, new long[] {tokens, 1}, v);
    }

    /** The asymmetric routing token -> expert [0, E, E + 1, E]: rank 0 gets 1 token, rank 1 three (lines 108-114). */
    private static DenseTensor asymmetric() {
        return DenseTensor.ofLongs(DataType.INT64, new long[] {TOKENS, 1}, 0, PER_RANK, PER_RANK + 1, PER_RANK);
    }

    private static List<Map<Integer, DenseTensor>> inputs(MoePrograms.Tensors t, int world,
                                                          java.util.function.IntFunction<DenseTensor> idx) {
        List<Map<Integer, DenseTensor>> in = new ArrayList<>();
        for (int rank = 0; rank < world; rank++) {
            in.add(Map.of(t.inX().id(), x(rank, (int) idx.apply(rank).size(0)), t.inTopkIdx().id(), idx.apply(rank),
                    t.inTopkWeights().id(), weights(rank, (int) idx.apply(rank).size(0))));
        }
        return in;
    }

    private static HostIrContainer dispatchAndCombine(MoePrograms.Built b) {
        MoePrograms.Tensors t = b.t();
        return MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined()));
    }

    private static HostIrContainer dispatchOnly(MoePrograms.Built b) {
        MoePrograms.Tensors t = b.t();
        return MoePrograms.program(b, List.of(b.dispatch()), List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()),
                List.of(t.recvX(), t.recvTopkIdx(), t.recvTopkWeights(), t.recvSrcIdx(), t.toRank(), t.fromRank()));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8})
    void dispatchCombineTop1GivesBackEveryRanksTokens(int world) throws Exception {
        MoePrograms.Built b = MoePrograms.build(world, (long) world * PER_RANK, DataType.FLOAT);
        var out = MoePrograms.run(dispatchAndCombine(b), world, inputs(b.t(), world, r -> asymmetric()));
        for (int rank = 0; rank < world; rank++) {
            // EXPECT_TRUE(at::allclose(combined, x)) (line 119); the values move unchanged, so exactly
            assertArrayEquals(x(rank, TOKENS).toArray(), out.get(rank).get(b.t().combined().id()).toArray(),
                    "rank " + rank);
        }
    }

    /**
     * What DispatchOnlyTop1 (lines 205-222) compares with doMoeDispatch, written out: rank 0 receives token 0 of
     * every rank, rank 1 tokens 1, 3, 2 of every rank (sorted by expert 2, 2, 3; stably), the others nothing.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8})
    void dispatchOnlyTop1ReceivesTheTokensOfItsExpertsInSenderOrder(int world) throws Exception {
        MoePrograms.Built b = MoePrograms.build(world, (long) world * PER_RANK, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        var out = MoePrograms.run(dispatchOnly(b), world, inputs(t, world, r -> asymmetric()));
        for (int rank = 0; rank < world; rank++) {
            Map<Integer, DenseTensor> o = out.get(rank);
            long[] toRank = new long[world];
            toRank[0] = 1;
            toRank[1] = 3;
            assertArrayEquals(toRank, o.get(t.toRank().id()).toLongArray(), "n_tokens_to_rank on " + rank);
            long[] rows = rank == 0 ? new long[] {0} : rank == 1 ? new long[] {1, 3, 2} : new long[0];
            long[] fromRank = new long[world];
            java.util.Arrays.fill(fromRank, rows.length);
            assertArrayEquals(fromRank, o.get(t.fromRank().id()).toLongArray(), "n_tokens_from_rank on " + rank);
            List<Float> xs = new ArrayList<>();
            List<Long> src = new ArrayList<>();
            List<Long> experts = new ArrayList<>();
            List<Float> ws = new ArrayList<>();
            long[] expertOf = {0, PER_RANK, PER_RANK + 1, PER_RANK};
            for (int sender = 0; sender < world; sender++) {
                for (long row : rows) {
                    for (int h = 0; h < HIDDEN; h++) xs.add(row * HIDDEN + h + sender * 1000f);
                    src.add(row);
                    experts.add(expertOf[(int) row]);
                    ws.add((float) row + sender);
                }
            }
            assertArrayEquals(new long[] {src.size(), HIDDEN}, o.get(t.recvX().id()).shape(), "recv_x on " + rank);
            assertEquals(xs, boxed(o.get(t.recvX().id()).toArray()), "recv_x on " + rank);
            assertEquals(src, boxed(o.get(t.recvSrcIdx().id()).toLongArray()), "recv_src_idx on " + rank);
            assertEquals(experts, boxed(o.get(t.recvTopkIdx().id()).toLongArray()), "recv_topk_idx on " + rank);
            assertEquals(ws, boxed(o.get(t.recvTopkWeights().id()).toArray()), "recv_topk_weights on " + rank);
        }
    }

    /** CombineOnlyTop1 (lines 225-309): a combine program fed with a dispatch's outputs gives back x. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8})
    void combineOnlyTop1(int world) throws Exception {
        MoePrograms.Built b = MoePrograms.build(world, (long) world * PER_RANK, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        var dispatched = MoePrograms.run(dispatchOnly(b), world, inputs(t, world, r -> asymmetric()));
        HostIrContainer combine = MoePrograms.program(b, List.of(b.combine()), List.of(t.recvX(), t.recvTopkWeights(),
                t.recvSrcIdx(), t.toRank(), t.fromRank()), List.of(t.combined()));
        var out = MoePrograms.run(combine, world, dispatched);
        for (int rank = 0; rank < world; rank++) {
            assertArrayEquals(x(rank, TOKENS).toArray(), out.get(rank).get(t.combined().id()).toArray(),
                    "rank " + rank);
        }
    }

    /**
     * test_expert_parallel.py on a seeded router (torch.manual_seed(rank) there, java.util.Random here): 12 tokens
     * per rank, 3 experts per rank, experts drawn at random; each rank receives only its experts' tokens (lines
     * 154-156), as many as the senders routed to it, and the combine restores the tokens exactly (line 189).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8})
    void aSeededRandomRoutingRoundTripsExactly(int world) throws Exception {
        int perRank = 3;
        int tokens = 12;
        MoePrograms.Built b = MoePrograms.build(world, (long) world * perRank, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        List<long[]> routes = new ArrayList<>();
        for (int rank = 0; rank < world; rank++) {
            Random random = new Random(rank);
            routes.add(random.longs(tokens, 0, (long) world * perRank).toArray());
        }
        var in = inputs(t, world, r -> DenseTensor.ofLongs(DataType.INT64, new long[] {tokens, 1}, routes.get(r)));
        HostIrContainer both = MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined(), t.recvTopkIdx()));
        var out = MoePrograms.run(both, world, in);
        for (int rank = 0; rank < world; rank++) {
            int me = rank;
            long expected = routes.stream().flatMapToLong(java.util.Arrays::stream).filter(e -> e / perRank == me)
                    .count();
            long[] received = out.get(rank).get(t.recvTopkIdx().id()).toLongArray();
            assertEquals(expected, received.length, "tokens received by rank " + rank);
            for (long e : received) assertTrue(e >= (long) perRank * rank && e < (long) perRank * (rank + 1),
                    "rank " + rank + " received a token of expert " + e);
            assertArrayEquals(x(rank, tokens).toArray(), out.get(rank).get(t.combined().id()).toArray(),
                    "rank " + rank);
        }
    }

    /** Printed as MoeDispatch/MoeCombine::toInlineString (communication.cpp:294-304, 360-369), read back. */
    @ParameterizedTest
    @ValueSource(ints = {2})
    void printedAsNvFuserAndReadBackWithoutTheUnprintedTensorsItRefusesToRun(int world) throws Exception {
        MoePrograms.Built b = MoePrograms.build(world, 4, DataType.FLOAT);
        String text = HostIrPrinter.print(dispatchAndCombine(b), NvFuserGeneration.V2026_04);
        assertTrue(text.contains("Dispatch " + b.dispatch().id() + " (num_experts=4, backend=NCCL, in=T0_g_float["),
                text);
        assertTrue(text.contains("Combine " + b.combine().id() + " (backend=NCCL, in=T3_g_float["), text);
        assertFalse(text.contains("n_tokens"), text);
        HostIrContainer read = HostIrDumpReader.read(text).program();
        assertEquals(text, HostIrPrinter.print(read, NvFuserGeneration.V2026_04));
        MoePrograms.Tensors t = b.t();
        var e = assertThrows(NotExecutableNodeException.class, () -> MoePrograms.run(read, world,
                inputs(t, world, r -> asymmetric())));
        assertTrue(e.getMessage().contains("does not print its outputs recv_topk_idx"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** Hostile routings: one line naming the node and tensor, never a hang (every rank refuses before exchanging). */
    @ParameterizedTest
    @ValueSource(ints = {2})
    void hostileRoutingsAreRefusedInOneLine(int world) {
        MoePrograms.Built b = MoePrograms.build(world, (long) world * PER_RANK, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        var outOfRange = assertThrows(ExecutionException.class, () -> MoePrograms.run(dispatchOnly(b), world,
                inputs(t, world, r -> DenseTensor.ofLongs(DataType.INT64, new long[] {TOKENS, 1}, 0, 1, 2, 99))));
        assertEquals("Dispatch " + b.dispatch().id() + ": T1 expert id 99 outside [0, 4)", outOfRange.getMessage());
        var topk2 = assertThrows(ExecutionException.class, () -> MoePrograms.run(dispatchOnly(b), world,
                inputs(t, world, r -> DenseTensor.ofLongs(DataType.INT64, new long[] {2, 2}, 0, 1, 2, 3))));
        assertTrue(topk2.getMessage().contains("only topk=1 is supported"), topk2.getMessage());
        MoePrograms.Built odd = MoePrograms.build(world, 3, DataType.FLOAT);
        var indivisible = assertThrows(ExecutionException.class, () -> MoePrograms.run(dispatchOnly(odd), world,
                inputs(odd.t(), world, r -> asymmetric())));
        assertTrue(indivisible.getMessage().contains("num_experts=3 must be a positive multiple of the 2 ranks"),
                indivisible.getMessage());
        MoePrograms.Built intWeights = MoePrograms.build(world, 4, DataType.INT64);
        var weights = assertThrows(ExecutionException.class, () -> MoePrograms.run(dispatchOnly(intWeights), world,
                inputs(intWeights.t(), world, r -> asymmetric())));
        assertTrue(weights.getMessage().contains("topk_weights must be floating point"), weights.getMessage());
    }

    private static List<Float> boxed(float[] v) {
        List<Float> out = new ArrayList<>();
        for (float f : v) out.add(f);
        return out;
    }

    private static List<Long> boxed(long[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }
}
