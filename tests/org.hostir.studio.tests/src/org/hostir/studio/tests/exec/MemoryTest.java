package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** Peak device memory per rank, and what deallocation insertion saves (nvFuser's InsertDeallocations test). */
class MemoryTest {
    private static final long M = 1024;
    private static final long BUFFER = M * 4;

    /** x -> a = x + x -> b = a + a -> c = b + b -> d = c + c (output): three intermediates in a row. */
    private static Fusion chain() {
        IrBuilder b = new IrBuilder();
        List<FusionOp> ops = new ArrayList<>();
        TensorView x = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.symbol("M")));
        TensorView prev = x;
        for (int i = 0; i < 4; i++) {
            TensorView next = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.symbol("M")));
            ops.add(new FusionOp.Binary(BinaryOpType.ADD, next, prev, prev));
            prev = next;
        }
        return b.fusion("chain", List.of(x), ops, List.of(prev));
    }

    private static RunResult run(boolean deallocate) {
        LoweringOptions options = SeedGeneration.options(Map.of("insertDeallocations", Boolean.toString(deallocate)));
        RunConfig config = new RunConfig(1, Map.of("M", M, "D", 1L), options.numberOfStreams(), 2, 1, true, 5, 10_000);
        try (CpuBackend backend = new CpuBackend(1)) {
            return Runs.lowered(chain(), config, options, backend, line -> { });
        }
    }

    @Test
    void deallocationInsertionLowersThePeak() {
        RunResult kept = run(false);
        RunResult freed = run(true);
        assertTrue(kept.validation().orElseThrow().passed(), kept.validation().get().line());
        assertTrue(freed.validation().orElseThrow().passed(), freed.validation().get().line());
        // input + a + b + c + d when nothing is freed; input + two live intermediates when each dies at once
        assertEquals(5 * BUFFER, kept.peakBytes().get(0));
        assertEquals(3 * BUFFER, freed.peakBytes().get(0));
    }
}
