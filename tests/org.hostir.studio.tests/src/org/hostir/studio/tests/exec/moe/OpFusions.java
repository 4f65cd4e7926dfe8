package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;

/** What the MoE op tests (topk, scatter, grouped_mm) do with a one-op fusion text: load, refuse, dump. */
final class OpFusions {
    private OpFusions() {}

    static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "op.fusion"), devices, Map.of());
    }

    /** The first diagnostic of check's refusal at 2 devices. */
    static Diagnostic refusal(String text) {
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.check(load(text, 2), SeedGeneration.options(Map.of())));
        return e.diagnostics().getFirst();
    }

    /** Rank 0's program at 2 devices as nvFuser 2026-04 prints it, checked to read back to the same text. */
    static String dumpReadBack(String text) throws Exception {
        var program = Engine.lowerRank(load(text, 2), SeedGeneration.options(Map.of()), 0);
        String dump = HostIrPrinter.print(program, NvFuserGeneration.V2026_04);
        assertEquals(dump, HostIrPrinter.print(HostIrDumpReader.read(dump).program(), NvFuserGeneration.V2026_04));
        return dump;
    }
}
