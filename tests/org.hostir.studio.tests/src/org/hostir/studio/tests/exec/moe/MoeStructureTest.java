package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * The expected structure of the ported nvFuser programs (tests/cpp/test_multidevice_dispatch_combine.cpp at
 * 81c4b22fd), kept under {@code examples/moe/} as nvFuser's {@code NVFUSER_DUMP=host_ir} prints them
 * (MoeDispatch::toInlineString and MoeCombine::toInlineString, csrc/multidevice/communication.cpp:294-304 and
 * 360-369): each program as the test builds it prints exactly as its file, and the file reads back to itself.
 * {@code -Dmoe.update=true} rewrites the files from the programs (then review the diff).
 */
class MoeStructureTest {
    private static void check(String name, HostIrContainer program) throws Exception {
        Path file = TestPaths.repo("examples", "moe", name + ".hir");
        String printed = HostIrPrinter.print(program, NvFuserGeneration.V2026_04);
        if (Boolean.getBoolean("moe.update")) Files.writeString(file, printed);
        assertEquals(Files.readString(file), printed, name);
        assertEquals(printed, HostIrPrinter.print(HostIrDumpReader.read(printed).program(), NvFuserGeneration.V2026_04));
    }

    /** DispatchCombineTop1 (lines 47-91): dispatch then combine, on 2 ranks with 2 experts each. */
    @Test
    void dispatchCombineTop1() throws Exception {
        MoePrograms.Built b = MoePrograms.build(2, 4, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        check("dispatch_combine_top1", MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined())));
    }

    /** DispatchOnlyTop1 (lines 140-177): the dispatch and its six outputs. */
    @Test
    void dispatchOnlyTop1() throws Exception {
        MoePrograms.Built b = MoePrograms.build(2, 4, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        check("dispatch_only_top1", MoePrograms.program(b, List.of(b.dispatch()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.recvX(), t.recvTopkIdx(),
                        t.recvTopkWeights(), t.recvSrcIdx(), t.toRank(), t.fromRank())));
    }

    /** CombineOnlyTop1 (lines 266-294): the combine over a dispatch's outputs given as inputs. */
    @Test
    void combineOnlyTop1() throws Exception {
        MoePrograms.Built b = MoePrograms.build(2, 4, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        check("combine_only_top1", MoePrograms.program(b, List.of(b.combine()), List.of(t.recvX(),
                t.recvTopkWeights(), t.recvSrcIdx(), t.toRank(), t.fromRank()), List.of(t.combined())));
    }
}
