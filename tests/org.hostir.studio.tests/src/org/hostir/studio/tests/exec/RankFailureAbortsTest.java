package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.junit.jupiter.api.Test;

/**
 * A rank whose host program throws tells the backend to end the other ranks' waits ({@link Backend#abort}): on
 * the GPU they may sit in NCCL calls that only an abort of the communicators releases (a Reduce that hung on four
 * GPUs waited so, in the next team's communicator creation); on the CPU rank 0 would otherwise wait in its
 * Allgather until the backend's no-progress timeout and report that instead. The run fails at once with the
 * failing rank's message.
 */
class RankFailureAbortsTest {
    /** The CPU backend with rank 1's device failing on its first allocation, recording abort calls. */
    private static final class FailingRank implements Backend {
        final CpuBackend cpu = new CpuBackend(2, 10_000);
        final List<String> aborts = new CopyOnWriteArrayList<>();
        final RuntimeException thrown;

        FailingRank() { this(new ExecutionException("injected failure")); }

        FailingRank(RuntimeException thrown) { this.thrown = thrown; }

        @Override public String name() { return "cpu, rank 1 failing"; }
        @Override public int deviceCount() { return cpu.deviceCount(); }
        @Override public Timeline timeline() { return cpu.timeline(); }
        @Override public void resetTimeline() { cpu.resetTimeline(); }
        @Override public Optional<RunFailure> failure() { return cpu.failure(); }
        @Override public Optional<Throwable> bug() { return cpu.bug(); }
        @Override
        public void abort(RunFailure why) {
            aborts.add(why.getMessage());
            cpu.abort(why);
        }
        @Override public void close() { cpu.close(); }

        @Override
        public Device device(int rank) {
            Device real = cpu.device(rank);
            if (rank != 1) return real;
            return (Device) Proxy.newProxyInstance(Device.class.getClassLoader(), new Class<?>[] {Device.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("allocate")) throw thrown;
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    @Test
    void aThrowingRankAbortsTheBackendAndNamesItself() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
        try (FailingRank backend = new FailingRank()) {
            long start = System.nanoTime();
            ExecutionException e = assertThrows(ExecutionException.class, () -> Runs.run(loaded, 2, Map.of(), backend, line -> { }));
            assertTrue(e.getMessage().contains("rank 1: injected failure"), e.getMessage());
            // rank 1 aborts first; rank 0, woken, fails with rank 1's message (a second abort changes nothing)
            assertEquals("rank 1: injected failure", backend.aborts.get(0));
            assertEquals("rank 1: injected failure", backend.failure().orElseThrow().getMessage());
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "rank 0 waited for the timeout");
        }
    }

    /**
     * Issue 31: what a rank throws that is no run failure (a bug) is rethrown as itself, so that the command line
     * reports an internal error (exit 3) rather than a failed run whose message is an exception's class and text.
     */
    @Test
    void aBugInARankIsRethrownAsItselfNotAsARunFailure() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
        IllegalStateException bug = new IllegalStateException("planted bug");
        try (FailingRank backend = new FailingRank(bug)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Runs.run(loaded, 2, Map.of(), backend, line -> { }));
            assertSame(bug, e);
            assertEquals("rank 1: planted bug", backend.aborts.get(0), "the other ranks' waits end all the same");
        }
    }

    /**
     * Issue 31: a stream task that throws what no run failure throws (here a kernel given an output of the wrong
     * shape) ends the run with a message free of exception class names and keeps the throwable as the backend's
     * {@link Backend#bug()}, which the runner rethrows as an internal error.
     */
    @Test
    void aBugInAStreamTaskEndsTheRunAndIsKeptAsABug() {
        IrBuilder b = new IrBuilder();
        TensorView x = b.tensor(null, DataType.FLOAT, MemoryType.GLOBAL, null, List.of(b.iter(new Extent.Constant(4))));
        TensorView y = b.tensor(null, DataType.FLOAT, MemoryType.GLOBAL, null, List.of(b.iter(new Extent.Constant(2))));
        try (CpuBackend cpu = new CpuBackend(1, 5_000)) {
            Device d = cpu.device(0);
            Buffer in = d.allocate(new long[] {4}, DataType.FLOAT);
            Buffer out = d.allocate(new long[] {2}, DataType.FLOAT);
            d.compute(new FusionOp.Unary(UnaryOpType.NEG, y, x), List.of(in), out, d.userStream(),
                    OpInfo.of(1, 0, "neg", EventKind.KERNEL));
            ExecutionException e = assertThrows(ExecutionException.class, d::synchronize);
            assertEquals("rank 0 stream 0: an internal error ended the run", e.getMessage());
            assertTrue(cpu.bug().orElseThrow() instanceof IllegalArgumentException, cpu.bug().toString());
        }
    }
}
