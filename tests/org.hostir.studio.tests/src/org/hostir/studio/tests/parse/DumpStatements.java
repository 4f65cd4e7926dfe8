package org.hostir.studio.tests.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * Statements as nvFuser 81c4b22fd prints them, one indentation level deep, about a tensor {@code t} of the dump they
 * are put in. Each spelling is copied from the toString cited beside it, not from the Studio's printer.
 */
final class DumpStatements {
    private DumpStatements() {}

    /** {name, text}: node kinds the Studio models, which must read and print back. */
    static List<String[]> known(String t) {
        List<String[]> out = new ArrayList<>();
        // LaunchKernel::toString, csrc/host_ir/ir.cpp:150-158
        out.add(new String[] {"LaunchKernel",
            "  LaunchKernel(\n    Group ID: 3,\n    Inputs: {" + t + "},\n    Outputs: {" + t + "},\n  )"});
        // a kernel with scalar inputs: LaunchKernel prints every input Val (ir.cpp:150-158; the segment's inputs,
        // csrc/host_ir/lowering.cpp:370), each by Val::toString (csrc/ir/base_nodes.cpp:265-281): a symbolic Val by
        // ir_utils::varName, its dtype's typePrefix (csrc/type.cpp:1639: i, d, b), a constant by its value
        out.add(new String[] {"LaunchKernel with a scalar input",
            "  LaunchKernel(\n    Group ID: 5,\n    Inputs: {" + t + ", i9},\n    Outputs: {" + t + "},\n  )"});
        out.add(new String[] {"LaunchKernel with scalars of other dtypes", "  LaunchKernel(\n    Group ID: 6,\n"
                + "    Inputs: {d3, " + t + ", b1, 7, double(2.5)},\n    Outputs: {" + t + "},\n  )"});
        out.add(new String[] {"LaunchKernel with scalars only",
            "  LaunchKernel(\n    Group ID: 7,\n    Inputs: {i9, i10},\n    Outputs: {" + t + "},\n  )"});
        // kir::Allocate::toString, csrc/kernel_ir.cpp:548-560: resets_to_zero, and the aliased allocation's buffer
        // on a ".alias=" line one kTab deeper
        String buffer = t.replaceFirst("^T\\d+", "T9005");
        out.add(new String[] {"kir ALLOCATE resets_to_zero=true", "  " + buffer + " = ALLOCATE(buffer=" + buffer
                + ", mem_type=global, size=8, zero_init=true, resets_to_zero=true)"});
        out.add(new String[] {"kir ALLOCATE with .alias=", "  " + buffer + " = ALLOCATE(buffer=" + buffer
                + ", mem_type=global, size=( i9 * 4 ), zero_init=false, resets_to_zero=false)\n    .alias=" + t});
        out.add(new String[] {"kir ALLOCATE resets_to_zero=true with .alias=", "  " + buffer + " = ALLOCATE(buffer="
                + buffer + ", mem_type=global, size=i9, zero_init=true, resets_to_zero=true)\n    .alias=" + t});
        // Deallocate::toString, csrc/host_ir/ir.cpp:173-177: the buffer one level deeper, on its own line
        out.add(new String[] {"Deallocate", "  Deallocate {\n    " + t + "\n  }"});
        // hir::Allocate::toString, csrc/host_ir/ir.cpp:527-532
        out.add(new String[] {"hir ALLOCATE", "  " + t + " = ALLOCATE(mem_type=global, zero_init=false)"});
        // Stream::toString prints an unindexed stream by its address (ir.cpp:193-205); Get/Set/Synchronize ir.cpp:231-305
        out.add(new String[] {"stream calls", "  Stream 0x7f3a2c0012f0 = GetCurrentStream()\n"
                + "  SetCurrentStream(Stream 0x7f3a2c0012f0)\n  Synchronize(Stream 0x7f3a2c0012f0)"});
        // StartCoalescing / EndCoalescing, ir.cpp:324-346; Wait prints its target's name, ir.cpp:272-280
        out.add(new String[] {"coalescing", "  StartCoalescing\n  EndCoalescing 9001\n  Wait(Communication 9001)"});
        // SymmetricContiguousView::toString, ir.cpp:466-469
        out.add(new String[] {"SymmetricContiguousView", "  " + t + " = SymmetricContiguousView(" + t + ")"});
        if (!t.contains("DeviceMesh")) return out;
        // the team is the tensor's mesh's devices (Communication's team, csrc/multidevice/communication.cpp:163)
        String team = t.substring(t.indexOf("DeviceMesh")).replaceAll("[^0-9 ]", " ").trim().replaceAll(" +", " ");
        // Communication::toInlineString, csrc/multidevice/communication.cpp:162-175
        out.add(new String[] {"rooted Communication",
            "  Communication 9002 (type=Broadcast, team=(" + team + "), root=0, input="
                + t + ", output=" + t + ", backend=NCCL)\n  Wait(Communication 9002)"});
        // P2PCommunication::toInlineString, communication.cpp:212-215
        out.add(new String[] {"P2PCommunication", "  P2PCommunication 9003 (type=send, buffer=" + t
                + ", peer=1, backend=CUDA)\n  Wait(Communication 9003)"});
        // CollectivePermute::toInlineString, communication.cpp:251-256
        out.add(new String[] {"CollectivePermute",
            "  CollectivePermute 9004 (team=(" + team + "), send_peer=1, recv_peer=1, input="
                + t + ", output=" + t + ", backend=NCCL)\n  Wait(Communication 9004)"});
        return out;
    }

    /** {name, text}: node kinds the Studio does not model (or may not), to be kept as text when not understood. */
    static List<String[]> unknown(String t) {
        List<String[]> out = new ArrayList<>();
        // TopKOp::toString, csrc/ir/composite_nodes.cpp:815-824: two outputs in parentheses
        out.add(new String[] {"topk", "  ( " + t + ", " + t + " ) = topk( " + t
                + ", 2, dim = 0, largest = True, sorted = True )"});
        // GroupedMmaOp::toString, composite_nodes.cpp:947-970
        out.add(new String[] {"GroupedMmaOp",
            "  " + t + " = GroupedMmaOp(mat1=" + t + ", mat2=" + t + ", offsets=" + t + ")"});
        // SliceOp::toString, csrc/ir/internal_nodes.cpp:3029-3041: output, then "   = slice( .. )" on the next line
        out.add(new String[] {"slice", "  " + t + "\n     = slice( " + t + ", { {0, 1, 1} {0, 2, 1} } )"});
        // a node of an nvFuser newer than 81c4b22fd, printed in the call syntax of #5746, and a multi-line one
        out.add(new String[] {"call-syntax node", "  PrefetchStream(Stream 0x7f3a2c0012f0, depth=2)"});
        out.add(new String[] {"multi-line node", "  LaunchGraph(\n    Graph ID: 4,\n    Inputs: {" + t + "},\n  )"});
        return out;
    }
}
