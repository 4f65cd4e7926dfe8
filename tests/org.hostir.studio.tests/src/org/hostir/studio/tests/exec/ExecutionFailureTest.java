package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** Wrong programs are caught: a wrong result fails validation, ranks that disagree end with a diagnostic. */
class ExecutionFailureTest {
    private static final DeviceMesh M01 = DeviceMesh.of(0, 1);

    /** T1 = set(T0) on two devices, replicated: the fusion the hand-written programs below pretend to run. */
    private record Pair(IrBuilder b, Fusion fusion, TensorView in, TensorView out) {
        static Pair create() {
            IrBuilder b = new IrBuilder();
            TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, M01, b.iter(b.symbol("M")));
            TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, M01, b.iter(b.symbol("M")));
            return new Pair(b, b.fusion("pair", List.of(in), List.of(new FusionOp.Set(out, in)), List.of(out)), in, out);
        }
    }

    private static RunConfig config(long timeoutMillis, boolean validate) {
        return new RunConfig(2, Map.of("M", 8L, "D", 2L), SeedGeneration.DEFAULTS.numberOfStreams(), 1, 0, validate, 3,
                timeoutMillis);
    }

    private static String failure(Pair p, Map<Integer, HostIrContainer> programs) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (CpuBackend backend = new CpuBackend(2, 500)) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> Runner.run(p.fusion(), programs, config(500, false), backend, line -> { }));
                return e.getMessage();
            }
        });
    }

    @Test
    void uncoalescedSendsFirstDeadlockAsInNcclAndAreReportedPerRank() {
        Pair p = Pair.create();
        Scalar peer = Scalar.sub(Scalar.constant(1), NamedScalar.RANK);
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        for (int rank : List.of(0, 1)) {
            HostIrBuilder h = new HostIrBuilder(new IrBuilder(p.fusion().counters(), p.fusion().symbols()));
            var send = h.p2p(P2PCommunication.Type.SEND, p.in(), peer, CommunicatorBackend.NCCL);
            var recv = h.p2p(P2PCommunication.Type.RECV, p.out(), peer, CommunicatorBackend.NCCL);
            programs.put(rank, h.container(List.of(p.in()), List.of(p.out()),
                    List.of(h.allocate(p.out()), send, h.waitFor(send), recv, h.waitFor(recv))));
        }
        String why = failure(p, programs);
        assertTrue(why.startsWith("no progress for 500 ms"), why);
        assertTrue(why.contains("rank 0 stream 0: send to 1"), why);
        assertTrue(why.contains("rank 1 stream 0: send to 0"), why);
    }

    @Test
    void collectivesPostedInDifferentOrdersAreNamed() {
        Pair p = Pair.create();
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        for (int rank : List.of(0, 1)) {
            HostIrBuilder h = new HostIrBuilder(new IrBuilder(p.fusion().counters(), p.fusion().symbols()));
            List<HostNode> body = new ArrayList<>(List.of(h.allocate(p.out())));
            List<CommunicationType> order = rank == 0
                    ? List.of(CommunicationType.ALLGATHER, CommunicationType.ALLREDUCE)
                    : List.of(CommunicationType.ALLREDUCE, CommunicationType.ALLGATHER);
            for (CommunicationType type : order) {
                var c = h.communication(type, List.of(0, 1), null, p.in(), p.out(),
                        type.reduces() ? org.hostir.studio.ir.ReductionOpType.SUM : null,
                        CommunicatorBackend.NCCL);
                body.add(c);
                body.add(h.waitFor(c));
            }
            programs.put(rank, h.container(List.of(p.in()), List.of(p.out()), body));
        }
        String why = failure(p, programs);
        assertTrue(why.contains("ranks disagree: rank 0 posted Allgather, rank 1 posted Allreduce"), why);
    }

    /** A program that skips the local copy of its own slice leaves zeros there: validation must say FAIL. */
    @Test
    void aWrongProgramFailsValidation() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather_p2p", 2, Map.of());
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        for (int rank : List.of(0, 1)) {
            HostIrContainer c = Pipeline.standard().lower(loaded.fusion(),
                    new LoweringContext(rank, 2, SeedGeneration.DEFAULTS));
            programs.put(rank, c.withTopLevel(c.topLevel().stream().map(ExecutionFailureTest::withoutLocalCopy)
                    .toList(), c.counters()));
        }
        try (CpuBackend backend = new CpuBackend(2, 5_000)) {
            RunResult r = Runner.run(loaded.fusion(), programs, Runs.config(loaded, 2, Map.of()), backend, l -> { });
            assertFalse(r.validation().orElseThrow().passed(), r.validation().get().line());
            assertTrue(r.validation().get().line().startsWith("validation: FAIL "), r.validation().get().line());
        }
    }

    private static HostNode withoutLocalCopy(HostNode n) {
        if (n instanceof ForLoop f) return f.withBody(f.body().stream().map(ExecutionFailureTest::withoutLocalCopy).toList());
        if (n instanceof IfThenElse i) return new IfThenElse(i.id(), i.predicate(), List.of(), i.elseBody());
        return n;
    }
}
