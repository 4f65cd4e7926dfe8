package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;

/** A program read from a dump with a statement kept as text does not run: the backend names the statement. */
class OpaqueNodeRunTest {
    @Test
    void theEvaluatorRefusesAnOpaqueStatement() {
        HostIrContainer program = HostIrDumpReader.read(SeedDumps.dumpContaining("003", "= view(")).program();
        try (CpuBackend backend = new CpuBackend(1)) {
            Device device = backend.device(0);
            ScalarEnv env = new ScalarEnv(Map.of(), 0, 4);
            Map<Integer, Buffer> bound = new HashMap<>();
            for (TensorView in : program.inputs()) bound.put(in.id(), device.allocate(env.localShape(in), in.dtype()));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> new Evaluator(program, device, env, bound).run());
            assertTrue(e.getMessage().startsWith("cannot run the dump statement 'T1_l_float[iS3{2}, iS8{12}rf] = view("),
                    e.getMessage());
        }
    }
}
