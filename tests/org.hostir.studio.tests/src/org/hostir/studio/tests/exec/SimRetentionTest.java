package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.Test;

/**
 * The simulator forgets done ops while a rank's program goes on (issue 38 item 4: the all-pairs schedule at 4,096
 * ranks ran out of heap): a stream that waits on other streams in every iteration, as the all-pairs loop's host
 * stream does ({@code Synchronize} of the iteration's stream), must not keep every op it ever waited on, nor must a
 * done op still referenced (as a transfer references its other side) keep the later ops that followed it.
 */
class SimRetentionTest {
    private static final int ITERATIONS = 2_000;
    /** Iterations issued between two runs of the simulation: their ops follow one another before any is done. */
    private static final int BATCH = 50;

    @Test
    void doneOpsAreCollectedWhileTheHostStreamWaitsOnEveryIteration() throws Exception {
        SimBackend backend = new SimBackend(1, ProfileFiles.builtIn("h200x8-nvlink"), false, r -> false);
        Device device = backend.device(0);
        BackendStream host = device.userStream();
        BackendStream s = device.stream(1);
        Buffer a = device.allocate(new long[] {64, 64}, DataType.FLOAT);
        Buffer b = device.allocate(new long[] {64, 64}, DataType.FLOAT);
        List<WeakReference<BackendEvent>> ops = new ArrayList<>();
        List<BackendEvent> held = new ArrayList<>(); // as a transfer holds its other side's done op
        for (int i = 0; i < ITERATIONS; i++) {
            device.copy(b, a, s, OpInfo.of(1, i, "copy", EventKind.KERNEL));
            if (i % BATCH == 0) held.add(device.record(s));
            device.copy(a, b, s, OpInfo.of(2, i, "copy back", EventKind.KERNEL));
            BackendEvent done = device.record(s);
            ops.add(new WeakReference<>(done));
            device.waitEvent(host, done); // the loop's Synchronize of the iteration's stream on the host stream
            device.recordHost(OpInfo.of(3, i, "Synchronize", EventKind.HOST), 0, 0);
            if (i % BATCH == BATCH - 1) backend.simulate(); // all issued so far is done: the rank goes on after it
        }
        assertTrue(backend.failure().isEmpty(), backend.failure().toString());
        for (int i = 0; i < 3; i++) System.gc();
        long alive = ops.stream().filter(r -> r.get() != null).count();
        // left: the stream's last op, the host stream's one wait on it, and the done ops of the rank's list of ops in
        // flight until it is pruned (at most about a hundred here); before: every op, through the host stream's
        // waits, through each held op's dependents (its batch), and through up to 1,024 done ops in that list
        assertTrue(alive < ITERATIONS / 10, alive + " of " + ITERATIONS + " ops still reachable after the simulation"
                + " passed them (" + held.size() + " held)");
    }
}
