package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.IndexOutOfRange;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;

/**
 * The set-up the MoE and indexing ops' tests share: a fusion of one op written as text under a file name, loaded with
 * its own symbols, refused by {@link Engine#check} on 2 devices, or lowered for rank 0 and printed in nvFuser
 * 2026-04's spelling, which the dump reader must read back to the same text; an input as the engine's seeded inputs
 * draw it; the kernel's refusal of an out-of-range index.
 */
record OneOpFusion(String file) {
    LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, file), devices, Map.of());
    }

    /** The first diagnostic {@code text} is refused with. */
    Diagnostic refusal(String text) {
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.check(load(text, 2), SeedGeneration.options(Map.of())));
        return e.diagnostics().getFirst();
    }

    /** Rank 0's program of {@code text} at 2 devices, printed as {@link #printedAndReadBack} does. */
    String dumpReadBack(String text) throws Exception { return printedAndReadBack(load(text, 2)); }

    /** Rank 0's program of {@code loaded}, printed in 2026-04's spelling and asserted to read back the same. */
    static String printedAndReadBack(LoadedFusion loaded) throws Exception {
        String text = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.options(Map.of()), 0),
                NvFuserGeneration.V2026_04);
        assertEquals(text, HostIrPrinter.print(HostIrDumpReader.read(text).program(), NvFuserGeneration.V2026_04));
        return text;
    }

    /** The fusion's input at {@code position} as the engine's seeded inputs draw it with {@code seed}. */
    static DenseTensor drawn(LoadedFusion loaded, int position, long seed) {
        int id = loaded.fusion().inputs().get(position).id();
        return Inputs.generate(loaded.fusion(), loaded.bindings().asMap(), seed).get(id);
    }

    /** The kernel's refusal of {@code inputs}, asserted to be one line ending with {@code ending}. */
    static IndexOutOfRange outOfRange(FusionOp op, List<DenseTensor> inputs, String ending) {
        IndexOutOfRange e = assertThrows(IndexOutOfRange.class, () -> OpKernels.compute(op, inputs));
        assertTrue(e.getMessage().endsWith(ending), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e;
    }
}
