package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.ReferenceInterpreter;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** Streams behave as DESIGN 2.3 says: the host never waits on them, work overlaps, bound outputs are written. */
class StreamSemanticsTest {
    private static final Map<String, Long> BIG = Map.of("M", 96L, "K", 256L, "N", 256L);

    private static RunResult agMatmulP2p(int devices) throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", devices, BIG);
        try (CpuBackend backend = new CpuBackend(devices)) {
            return Runs.run(loaded, devices, Map.of(), backend, line -> { });
        }
    }

    @Test
    void theHostDispatchesEverythingBeforeTheStreamsFinish() throws Exception {
        RunResult r = agMatmulP2p(2);
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
        for (int rank : List.of(0, 1)) {
            List<TimelineEvent> events = r.timeline().of(rank);
            long lastDispatch = events.stream().filter(e -> e.stream() == TimelineEvent.HOST_STREAM)
                    .mapToLong(TimelineEvent::endNs).max().orElseThrow();
            long lastMatmul = events.stream().filter(e -> e.kind() == EventKind.MATMUL)
                    .mapToLong(TimelineEvent::endNs).max().orElseThrow();
            assertTrue(lastDispatch < lastMatmul, "Synchronize and Wait must not block the host: last dispatch at "
                    + lastDispatch + " ns, last matmul ends at " + lastMatmul + " ns");
            Set<Integer> matmulStreams = events.stream().filter(e -> e.kind() == EventKind.MATMUL)
                    .map(TimelineEvent::stream).collect(Collectors.toSet());
            assertEquals(2, matmulStreams.size(), "iteration i runs on stream i % numberOfStreams: " + matmulStreams);
            assertTrue(!matmulStreams.contains(0), "no matmul on the user's stream");
        }
    }

    /**
     * The point of the pipeline: a slice's transfer runs while another slice's matmul computes. Threads are real,
     * so the scheduler decides the exact times; a few attempts rule out an unlucky one, a serialized pipeline never
     * overlaps.
     */
    @Test
    void communicationOverlapsMatmulOnAnotherStream() throws Exception {
        boolean overlapped = false;
        for (int attempt = 0; attempt < 5 && !overlapped; attempt++) {
            RunResult r = agMatmulP2p(4);
            assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
            List<TimelineEvent> events = r.timeline().events();
            for (TimelineEvent c : events) {
                if (c.kind() != EventKind.P2P) continue;
                for (TimelineEvent m : events) {
                    if (m.kind() == EventKind.MATMUL && m.rank() == c.rank() && m.stream() != c.stream()
                            && m.startNs() < c.endNs() && c.startNs() < m.endNs()) {
                        overlapped = true;
                    }
                }
            }
        }
        assertTrue(overlapped, "no transfer overlapped a matmul on another stream of the same rank");
    }

    /** Seed 003: Set, Binary, Reduction, Matmul and Linear write into an output bound before the run. */
    @Test
    void preallocatedOutputsAreWrittenInPlace() {
        IrBuilder b = new IrBuilder();
        var m = b.symbol("M");
        var k = b.symbol("K");
        var n = b.symbol("N");
        TensorView x = tv(b, b.iter(m), b.iter(k));
        TensorView w = tv(b, b.iter(k), b.iter(n));
        TensorView wt = tv(b, b.iter(n), b.iter(k));
        TensorView bias = tv(b, b.iter(n));
        TensorView copy = tv(b, b.iter(m), b.iter(k));
        TensorView sum = tv(b, b.iter(m), b.iter(k));
        TensorView red = tv(b, b.iter(m), b.reduction(k));
        TensorView mm = tv(b, b.iter(m), b.iter(n), b.reduction(k));
        TensorView lin = tv(b, b.iter(m), b.iter(n), b.reduction(k));
        List<FusionOp> ops = List.of(new FusionOp.Set(copy, x), new FusionOp.Binary(BinaryOpType.ADD, sum, x, copy),
                new FusionOp.Reduction(ReductionOpType.SUM, red, sum, List.of(1)), new FusionOp.Matmul(mm, x, w),
                new FusionOp.Linear(lin, x, wt, bias));
        List<TensorView> outs = List.of(copy, sum, red, mm, lin);
        Fusion f = b.fusion("outs", List.of(x, w, wt, bias), ops, outs);
        Map<String, Long> symbols = Map.of("M", 3L, "K", 4L, "N", 5L, "D", 1L);
        HostIrContainer program = Pipeline.standard().lower(f, new LoweringContext(0, 1, SeedGeneration.DEFAULTS));
        Map<Integer, DenseTensor> inputs = Inputs.generate(f, symbols, 11);
        Map<Integer, DenseTensor> expected = ReferenceInterpreter.run(f, inputs);
        try (CpuBackend backend = new CpuBackend(1)) {
            Device device = backend.device(0);
            ScalarEnv env = new ScalarEnv(symbols, 0, 4);
            Map<Integer, Buffer> bound = new HashMap<>();
            inputs.forEach((id, t) -> bound.put(id, device.upload(t)));
            Map<Integer, Buffer> preallocated = new HashMap<>();
            for (TensorView out : outs) preallocated.put(out.id(), device.allocate(env.localShape(out), out.dtype()));
            bound.putAll(preallocated);
            Map<Integer, Buffer> results = new Evaluator(program, device, env, bound).run();
            for (TensorView out : outs) {
                assertSame(preallocated.get(out.id()), results.get(out.id()), out.label() + " was reallocated");
                Comparison.Result cmp = Comparison.compare(expected.get(out.id()),
                        device.download(results.get(out.id())));
                assertTrue(cmp.passed(), out.label() + ": " + cmp.summary());
            }
        }
    }

    private static TensorView tv(IrBuilder b, org.hostir.studio.ir.IterDomain... axes) {
        return b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, axes);
    }
}
