package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hirstudio debug}: the stops it prints, a deadlock it names, and what it refuses. */
class DebugCommandTest {
    private static final String SEED = TestPaths.repo("examples/seeds/ag_matmul_p2p.fusion").toString();
    private static final String SWAPPED = TestPaths.repo("examples/communication/send_recv_swapped.fusion").toString();
    private static final Path SENDS_FIRST = TestPaths.repo("examples/debug/send_recv_swapped_sends_first.txt");

    /** Seed 000's P2PCommunications held on rank 0: two stops, in the remote iteration, then a validated end. */
    @Test
    void printsEachStopOfTheSeedsP2pOnRankZero() {
        CliRun r = CliRun.of("debug", SEED, "--break", "P2PCommunication@0");
        assertEquals(0, r.code(), r.err() + r.out());
        List<String> stops = r.out().lines().filter(l -> l.startsWith("stop ")).toList();
        assertEquals(List.of("stop 1", "stop 2"), stops, r.out());
        assertTrue(r.out().contains("  rank 0: suspended at P2PCommunication 12 (breakpoint)\n"
                + "    FOR StreamIdx (ForLoop 20): StreamIdx = 1 of [0, 2)\n"
                + "    at: P2PCommunication 12 (type=recv,"), r.out());
        assertTrue(r.out().contains("  rank 1: done issuing, blocked"), r.out());
        assertTrue(r.out().contains("    T0 'tv0' float [1, 8, 4] on DeviceMesh{0 1}, rank 0 (cpu), 128 B: min "), r.out());
        assertTrue(r.out().contains("; reference: equal"), r.out());
        assertTrue(r.out().contains("  waits: rank 1 -> rank 0: EndCoalescing 14, recv from 0 (node 14, iteration 0),"
                + " 128 B, tag 0"), r.out());
        assertTrue(r.out().endsWith("finished: validation: PASS max_abs_err=0.00 worst=0.00 of allowed (all 96"
                + " elements)\n"), r.out());
    }

    /** A breakpoint conditional on the loop index stops once per rank that reaches that iteration's node. */
    @Test
    void aBreakpointOnAnIterationStopsThere() {
        CliRun r = CliRun.of("debug", SEED, "--break", "12:0");
        assertEquals(0, r.code(), r.err() + r.out());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("stop ")).count(), r.out());
        assertTrue(r.out().contains("  rank 1: suspended at P2PCommunication 12 (breakpoint)\n"
                + "    FOR StreamIdx (ForLoop 20): StreamIdx = 0 of [0, 2)"), r.out());
    }

    /** {@code +team}: the Allgather named for rank 1 in iteration 0 holds its whole team there, rank 0 too. */
    @Test
    void aTeamWideBreakpointHoldsEveryMemberOfTheCommunication() {
        String allgather = TestPaths.repo("examples/seeds/allgather.fusion").toString();
        String held = "suspended at Communication 13 (breakpoint)\n    FOR StreamIdx (ForLoop 11): StreamIdx = 0 of [0, 4)";
        CliRun alone = CliRun.of("debug", allgather, "--break", "Communication@1:0");
        assertEquals(0, alone.code(), alone.err() + alone.out());
        assertTrue(alone.out().contains("  rank 1: " + held) && !alone.out().contains("  rank 0: " + held), alone.out());
        CliRun team = CliRun.of("debug", allgather, "--break", "Communication@1:0+team");
        assertEquals(0, team.code(), team.err() + team.out());
        assertEquals(1, team.out().lines().filter(l -> l.startsWith("stop ")).count(), team.out());
        assertTrue(team.out().contains("  rank 0: " + held) && team.out().contains("  rank 1: " + held), team.out());
    }

    /** The hand-edited exchange whose sends come first: the cycle named by its nodes, exit 1. */
    @Test
    void namesTheDeadlockOfAProgramWhoseSendsComeFirst() {
        CliRun r = CliRun.of("debug", SWAPPED, "--program", SENDS_FIRST.toString());
        assertEquals(1, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("    stream 0: send to 1 (node 3), waits for rank 1\n"), r.out());
        assertTrue(r.out().contains("  deadlock: rank 0 (P2PCommunication 3) -> rank 1 (P2PCommunication 3) -> rank 0\n"
                + "stuck: "), r.out());
    }

    /** The same exchange in a group (as NCCL needs it) runs through and validates: the dump's program is run. */
    @Test
    void theSameExchangeCoalescedValidates(@TempDir Path dir) throws Exception {
        String text = Files.readString(SENDS_FIRST);
        String grouped = text.replace("  P2PCommunication 3", "  StartCoalescing\n  P2PCommunication 3")
                .replace("  Wait(Communication 3)\n", "")
                .replace("  Wait(Communication 4)", "  EndCoalescing 5\n  Wait(Communication 5)");
        Path dump = dir.resolve("grouped.txt");
        Files.writeString(dump, grouped);
        CliRun r = CliRun.of("debug", SWAPPED, "--program", dump.toString(), "--step", "over", "--max-stops", "3");
        assertEquals(0, r.code(), grouped + r.err() + r.out());
        assertTrue(r.out().contains("(3 stops printed, --max-stops; running to the end)"), r.out());
        assertTrue(r.out().contains("finished: validation: PASS"), r.out());
    }

    @Test
    void refusesANodeTheProgramsDoNotHave() {
        CliRun r = CliRun.of("debug", SEED, "--break", "999");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("--break 999: no node 999 in the programs"), r.err());
        CliRun rank = CliRun.of("debug", SEED, "--break", "12@5");
        assertEquals(2, rank.code(), rank.out());
        assertTrue(rank.err().contains("--break 12@5 (rank) must be between 0 and 1, got 5"), rank.err());
    }

    /**
     * A dump with a statement its reader kept as text is refused before any rank runs, at the statement's line, not
     * failed halfway (exit 1) as the hostile suite found.
     */
    @Test
    void refusesAProgramWithAStatementKeptAsTextBeforeRunning(@TempDir Path dir) throws Exception {
        String text = Files.readString(SENDS_FIRST);
        int line = (int) text.lines().takeWhile(l -> !l.contains("P2PCommunication 3")).count() + 1;
        Path dump = dir.resolve("typo.txt");
        Files.writeString(dump, text.replaceFirst("P2PCommunication 3", "P2PCommunicaton 3"));
        CliRun r = CliRun.of("debug", SWAPPED, "--program", dump.toString());
        assertEquals(2, r.code(), r.err() + r.out());
        assertTrue(r.out().isEmpty(), "no rank ran: " + r.out());
        assertTrue(r.err().startsWith("error: " + dump + ":" + line + ": dump: ")
                && r.err().strip().endsWith("(a statement the dump reader kept as text) [dump.not-executable]"),
                r.err());
    }

    /**
     * The debugger runs on the CPU backend only ({@code DebugBackends}): {@code --backend cuda} or {@code sim} is
     * refused at once, in one line saying why and what to use instead, before anything is lowered or run; cpu and
     * auto debug as without the flag.
     */
    @Test
    void simIsRefusedInOneLineAndCudaWithoutItsGpusToo() {
        CliRun sim = CliRun.of("debug", SEED, "--backend", "sim");
        assertEquals(2, sim.code(), sim.err() + sim.out());
        assertEquals("", sim.out());
        assertEquals(1, sim.err().lines().count(), sim.err());
        assertTrue(sim.err().startsWith("error: debug --backend sim: the debugger runs on the cpu and cuda backends: "
                + "sim predicts"), sim.err());
        assertTrue(sim.err().contains("debug on cpu"), sim.err());
        if (CudaBackend.localDeviceCount() < 2) {
            // the seed has two ranks: NCCL needs a GPU for each
            CliRun cuda = CliRun.of("debug", SEED, "--backend", "cuda");
            assertEquals(2, cuda.code(), cuda.err() + cuda.out());
            assertEquals("", cuda.out());
            assertEquals(1, cuda.err().lines().count(), cuda.err());
            assertTrue(cuda.err().contains("--backend cuda: 2 ranks need 2 CUDA devices (NCCL puts one rank on each),"
                    + " this machine has " + CudaBackend.localDeviceCount() + " [debug.backend]"), cuda.err());
        }
        CliRun bad = CliRun.of("debug", SEED, "--backend", "tpu");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("error: debug: --backend expects auto, cpu, cuda or sim, got 'tpu'"), bad.err());
        for (String backend : List.of("cpu", "auto")) {
            CliRun r = CliRun.of("debug", SEED, "--backend", backend, "--break", "12:0");
            assertEquals(0, r.code(), r.err() + r.out());
            assertEquals(1, r.out().lines().filter(l -> l.startsWith("stop ")).count(), r.out());
        }
    }
}
