package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.hostir.studio.exec.AllToAllv;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * nvFuser's tests/cpp/test_multidevice_alltoallv.cpp AlltoallvAsymmetric (81c4b22fd, lines 19-73) on the CPU
 * backend: rank s sends {@code (s + d) % 3 + 1} int64 values to rank d, {@code arange(total) + s * 1000}; rank d
 * receives, in sender order, each sender's chunk for d.
 */
class AllToAllvTest {
    /** count_for (test lines 30-32). */
    private static long countFor(int sender, int dest) { return (sender + dest) % 3 + 1; }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void alltoallvAsymmetric(int world) throws Exception {
        List<long[]> received = exchange(world, rank -> {
            long[] send = new long[world];
            for (int d = 0; d < world; d++) send[d] = countFor(rank, d);
            return send;
        });
        for (int me = 0; me < world; me++) {
            List<Long> expected = new ArrayList<>(); // lines 58-69
            for (int sender = 0; sender < world; sender++) {
                long offset = 0;
                for (int dest = 0; dest < me; dest++) offset += countFor(sender, dest);
                for (long i = 0; i < countFor(sender, me); i++) expected.add(offset + i + sender * 1000L);
            }
            assertEquals(expected, java.util.Arrays.stream(received.get(me)).boxed().toList(), "rank " + me);
        }
    }

    /** Empty chunks (a rank that routes nothing to a peer) post no transfer and still line up. */
    @Test
    void emptyChunksAreSkipped() throws Exception {
        List<long[]> received = exchange(3, rank -> rank == 0 ? new long[] {0, 0, 5} : new long[] {0, 0, 0});
        assertArrayEquals(new long[] {0, 1, 2, 3, 4}, received.get(2));
        assertEquals(0, received.get(0).length);
    }

    @Test
    void splitsThatDoNotCoverTheBufferAreRefusedInOneLine() throws Exception {
        try (CpuBackend backend = new CpuBackend(1, 5_000)) {
            Device device = backend.device(0);
            Buffer send = device.upload(DenseTensor.ofLongs(DataType.INT64, new long[] {3}, 1, 2, 3));
            Buffer recv = device.allocate(new long[] {3}, DataType.INT64);
            var e = assertThrows(ExecutionException.class, () -> AllToAllv.exchange(device, device.userStream(),
                    List.of(0), send, new long[] {2}, recv, new long[] {3}, OpInfo.of(1, -1, "AllToAllv", EventKind.P2P)));
            assertEquals("AllToAllv: send splits sum to 2 rows, the buffer has 3", e.getMessage());
        }
    }

    /** Each rank sends {@code arange(total) + rank * 1000} with its splits; returns what each rank received. */
    private static List<long[]> exchange(int world, java.util.function.IntFunction<long[]> sendSplits) throws Exception {
        long[][] splits = new long[world][];
        for (int r = 0; r < world; r++) splits[r] = sendSplits.apply(r);
        List<Integer> team = java.util.stream.IntStream.range(0, world).boxed().toList();
        try (CpuBackend backend = new CpuBackend(world, 10_000)) {
            ExecutorService hosts = Executors.newFixedThreadPool(world);
            try {
                List<Future<long[]>> ranks = new ArrayList<>();
                for (int rank = 0; rank < world; rank++) {
                    int me = rank;
                    ranks.add(hosts.submit(() -> {
                        Device device = backend.device(me);
                        long total = java.util.Arrays.stream(splits[me]).sum();
                        long[] values = new long[(int) total];
                        for (int i = 0; i < total; i++) values[i] = i + me * 1000L;
                        long[] recvSplits = new long[world];
                        for (int s = 0; s < world; s++) recvSplits[s] = splits[s][me];
                        Buffer send = device.upload(DenseTensor.ofLongs(DataType.INT64, new long[] {total}, values));
                        Buffer recv = device.allocate(new long[] {java.util.Arrays.stream(recvSplits).sum()},
                                DataType.INT64);
                        AllToAllv.exchange(device, device.userStream(), team, send, splits[me], recv, recvSplits,
                                OpInfo.of(1, -1, "AllToAllv", EventKind.P2P));
                        device.synchronize();
                        return device.download(recv).toLongArray();
                    }));
                }
                List<long[]> out = new ArrayList<>();
                for (var f : ranks) out.add(f.get());
                assertTrue(out.size() == world);
                return out;
            } finally {
                hosts.shutdownNow();
            }
        }
    }
}
