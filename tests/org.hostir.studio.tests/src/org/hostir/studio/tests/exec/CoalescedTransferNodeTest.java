package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * A transfer of a coalesced group (StartCoalescing, P2PCommunication recv and send, EndCoalescing) is posted by its
 * P2PCommunication node, as in nvFuser (HostIrEvaluator::handle(P2PCommunication*) posts the send or receive); its
 * bar names that node, on the CPU backend and in the simulation alike, so the Timeline's link selects it.
 */
class CoalescedTransferNodeTest {
    private static final int DEVICES = 4;

    @Test
    void cpuBarsNameThePostingP2PCommunication() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", DEVICES, Map.of());
        try (CpuBackend backend = new CpuBackend(DEVICES, 10_000)) {
            check("cpu", Runs.run(loaded, DEVICES, Map.of(), backend, l -> { }));
        }
    }

    @Test
    void simulatedBarsNameThePostingP2PCommunication() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", DEVICES, Map.of());
        for (boolean symmetric : List.of(false, true)) {
            Map<Integer, HostIrContainer> programs =
                    Runs.programs(loaded.fusion(), DEVICES, SeedGeneration.DEFAULTS);
            SimBackend backend = new SimBackend(DEVICES, ProfileFiles.builtIn("h200x8-nvlink"), false, r -> true);
            check("sim" + (symmetric ? " (symmetric)" : ""), SimRun.run(programs,
                    Runs.config(loaded, DEVICES, Map.of()), backend, l -> { }, symmetric));
        }
    }

    /** Every recv/send bar of every rank names the one P2PCommunication of its type in that rank's program. */
    private static void check(String backend, RunResult result) {
        int bars = 0;
        for (TimelineEvent e : result.timeline().events()) {
            if (e.kind() != EventKind.P2P) continue;
            P2PCommunication.Type type = e.name().startsWith("send") ? P2PCommunication.Type.SEND
                    : P2PCommunication.Type.RECV;
            List<Integer> posting = result.programs().get(e.rank()).allNodes().stream()
                    .filter(n -> n instanceof P2PCommunication p && p.type() == type)
                    .map(n -> ((P2PCommunication) n).id()).toList();
            assertEquals(1, posting.size(), backend + " rank " + e.rank() + ": " + posting);
            assertEquals(posting.get(0), e.nodeId(), backend + " rank " + e.rank() + " bar " + e.name());
            bars++;
        }
        // D - 1 receives and D - 1 sends on each rank
        assertEquals(2 * DEVICES * (DEVICES - 1), bars, backend + ": transfer bars");
    }
}
