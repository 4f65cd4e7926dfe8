package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 3, the Reduce-based matmul + ReduceScatter (#5923): the program nvFuser printed for it, quoted in
 * the description of NVIDIA/Fuser#5923 (merged as 70c146b6d, 2026-03-11; {@code spt_rs_matmul_reduce.reference}),
 * against {@code lower --nvfuser 2026-04} of the port of RSMatmulTest.ReduceScatterReduceBased
 * ({@code spt_rs_matmul_reduce.fusion}) at the quote's 4 devices. The same nodes in the same nesting, and the same
 * print, numbering included, once the quote's origin is set aside: its dtype and concrete sizes (the PR's Python
 * port, half), the output's reduced axis printed serial there, and the captured stream's address.
 */
class NvFuserReduceBasedReferenceTest {
    private static final NvFuserReference REFERENCE = new NvFuserReference("spt_rs_matmul_reduce");

    @Test
    void theQuotedProgramIsLoweredWithItsNumbering() throws Exception {
        HostIrContainer nvFuser = REFERENCE.quoted();
        HostIrContainer studio = lowered(Map.of("nvfuser", "2026-04"));

        assertEquals(kinds(nvFuser.topLevel()), kinds(studio.topLevel()));
        Communication reduce = reduce(studio.topLevel());
        assertEquals(CommunicationType.REDUCE, reduce.type());
        assertEquals(List.of(0, 1, 2, 3), reduce.team());
        String quoted = HostIrPrinter.print(nvFuser, NvFuserGeneration.V2026_04);
        String ours = HostIrPrinter.print(studio, NvFuserGeneration.V2026_04);
        assertTrue(quoted.contains("root=streamIdx") && ours.contains("root=streamIdx"), ours);
        // the set-aside differences are there, and only they
        assertTrue(quoted.contains("___half[") && ours.contains("_float["));
        assertTrue(quoted.contains("rS13{4}") && ours.contains("rstreamIdx13{"));
        assertNotEquals(setAside(quoted), quoted.replaceAll("\\s+", " "));
        assertEquals(setAside(quoted), setAside(ours));
    }

    /**
     * Refused where nvFuser does not lower it: the seeds (a Stream input first, then the Stream reduction axis,
     * validateStreamAxis), offset_stream_indexing_by_rank ("Will fail if true"), and the 2026-04 host_ir_lowering
     * path, which has no such form.
     */
    @Test
    void refusedWhereNvFuserDoesNotLowerIt() throws Exception {
        assertEquals("stream.input", refusal(Map.of("nvfuser", "2025-06")).rule());
        Diagnostic offset = refusal(Map.of("nvfuser", "2026-04", "offsetStreamIndexingByRank", "true"));
        assertEquals("stream.reduce-scatter-reduce-offset", offset.rule());
        assertEquals(15, offset.line(), "C's line: " + offset.format());
        assertEquals("stream.reduction-host-ir-lowering",
                refusal(Map.of("nvfuser", "2026-04", "hostIrLowering", "true")).rule());
    }

    private static Diagnostic refusal(Map<String, String> options) {
        EngineFailure e = assertThrows(EngineFailure.class, () -> lowered(options));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind(), e.lines().toString());
        return e.diagnostics().getFirst();
    }

    /** Without dtypes, extents, the Stream on the reduced axis, the captured stream's name and communication ids. */
    private static String setAside(String text) {
        return SeedDumps.normalize(text.replaceAll("_g___half\\[|_g_float\\[", "_g[")
                .replaceAll("_l___half\\[|_l_float\\[", "_l[")
                .replaceAll("\\{[^{}]*(\\{[^{}]*\\}[^{}]*)*\\}", "{}")
                .replaceAll("rstreamIdx(\\d+)", "rS$1")
                .replaceAll("Stream (0x[0-9a-f]+|\\d+)\\b", "Stream captured")
                .replaceAll("Communication \\d+", "Communication N"));
    }

    private static HostIrContainer lowered(Map<String, String> options) throws Exception {
        return REFERENCE.lowered(4, options);
    }

    private static List<String> kinds(List<HostNode> nodes) { return NvFuserReference.kinds(nodes, true); }

    private static Communication reduce(List<HostNode> nodes) {
        for (HostNode n : nodes) {
            if (n instanceof Communication c) return c;
            for (List<HostNode> body : n.bodies()) {
                Communication c = reduce(body);
                if (c != null) return c;
            }
        }
        return null;
    }
}
