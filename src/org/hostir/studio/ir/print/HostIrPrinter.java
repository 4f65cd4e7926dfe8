package org.hostir.studio.ir.print;


import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.IndexDefinition;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.SymmetricContiguousView;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * Prints a HostIrContainer in the format of nvFuser's {@code NVFUSER_DUMP=host_ir}, line breaks included, in the
 * current generation's spelling unless told another ({@link NvFuserGeneration}: a dump read from text prints back in
 * its own).
 */
public final class HostIrPrinter {
    private static final String STEP = "  ";

    private final NvFuserGeneration g;

    private HostIrPrinter(NvFuserGeneration g) { this.g = g; }

    public static String print(HostIrContainer c) { return print(c, NvFuserGeneration.V2025_06); }

    public static String print(HostIrContainer c, NvFuserGeneration generation) {
        return new HostIrPrinter(generation).program(c);
    }

    private String tensor(TensorView tv) { return IrText.tensor(tv, g); }

    private String scalar(Scalar s) { return IrText.scalar(s, g); }

    private String stream(Stream s) { return IrText.stream(s, g); }

    private String program(HostIrContainer c) {
        StringBuilder out = new StringBuilder();
        out.append("%HostIrContainer { (").append(tensors(c.inputs(), ", ")).append(") -> (")
                .append(tensors(c.outputs(), ", ")).append(") :\n");
        for (HostNode n : c.topLevel()) print(n, STEP, out);
        Set<Integer> launched = c.launchedUnits();
        for (HostUnit u : c.hostUnits()) if (!launched.contains(u.number())) printHostUnit(u, out);
        out.append("} // %HostIrContainer\n");
        return out.toString();
    }

    /**
     * The block {@code NVFUSER_DUMP=host_ir(indices)} prints after the container (csrc/ir/printer.cpp:90-102 at
     * 81c4b22fd, #5327): a blank line, {@code Index definitions:}, then each definition as its BinaryOp prints,
     * {@code   i90 = i88 % 8;}, and a blank line; nothing without definitions.
     */
    public static String indexDefinitions(List<IndexDefinition> indices, NvFuserGeneration generation) {
        if (indices.isEmpty()) return "";
        StringBuilder out = new StringBuilder("\nIndex definitions:\n");
        for (IndexDefinition d : indices) {
            String value = d.definition() instanceof ScalarBinary b && b.op() != ScalarBinary.Op.CEIL_DIV
                    ? IrText.scalar(b.lhs(), generation) + " " + b.op().symbol() + " "
                            + IrText.scalar(b.rhs(), generation)
                    : IrText.scalar(d.definition(), generation);
            out.append(STEP).append(d.index().name()).append(" = ").append(value).append(";\n");
        }
        return out.append('\n').toString();
    }

    /** One node (and its bodies) at the given indentation. */
    public static String print(HostNode node, String indent) {
        return print(node, indent, NvFuserGeneration.V2025_06);
    }

    /** One node (and its bodies) at the given indentation, in a generation's spelling. */
    public static String print(HostNode node, String indent, NvFuserGeneration generation) {
        StringBuilder out = new StringBuilder();
        new HostIrPrinter(generation).print(node, indent, out);
        return out.toString();
    }

    /** A node on one line, for trees and lists, in the seeds' spelling. */
    public static String headline(HostNode node) { return headline(node, NvFuserGeneration.V2025_06); }

    /**
     * A node on one line in {@code generation}'s spelling: its printed lines joined ({@link Headline}), so a tensor
     * op reads {@code T8 = matmul(T7, T1)} with every operand; a FOR or IF by its first line, its bodies being rows
     * of their own.
     */
    public static String headline(HostNode node, NvFuserGeneration generation) {
        return switch (node) {
            case ForLoop _, IfThenElse _ -> print(node, "", generation).lines().findFirst().orElse("");
            // ShareMemHandles::toString ends each communication with ", " and never closes its parenthesis
            // (csrc/host_ir/ir.cpp, ShareMemHandles::toString); a row closes it, so that it reads as a call
            case ShareMemHandles _ -> Headline.join(print(node, "", generation)).replaceFirst(",$", "") + ")";
            default -> Headline.join(print(node, "", generation));
        };
    }

    private void print(HostNode node, String indent, StringBuilder out) {
        switch (node) {
            case Allocate a -> allocate(a, indent, out);
            // Deallocate::toString: the buffer on its own line, one level deeper (csrc/host_ir/ir.cpp:173)
            case Deallocate d -> out.append(indent).append(g.callSyntax()
                    ? "Deallocate {\n" + indent + STEP + tensor(d.buffer()) + "\n" + indent + "}"
                    : "Deallocate {" + tensor(d.buffer()) + "}").append('\n');
            case ForLoop f -> {
                out.append(indent).append("FOR ").append(scalar(f.index())).append(f.isRange()
                        ? " from " + scalar(f.start()) + " to " + scalar(f.stop())
                        : " in " + IrText.iterDomain(f.iterDomain(), g)).append(":\n");
                for (HostNode n : f.body()) print(n, indent + STEP, out);
            }
            case IfThenElse i -> ifThenElse(i, indent, out);
            case GetCurrentStream s -> out.append(indent).append(g.callSyntax()
                    ? stream(s.stream()) + " = GetCurrentStream()" : "GetCurrentStream into " + stream(s.stream()))
                    .append('\n');
            case SetCurrentStream s -> out.append(indent).append(call("SetCurrentStream", "to", stream(s.stream())));
            case Synchronize s -> out.append(indent).append(call("Synchronize", "", stream(s.stream())));
            case HirAliasSelect s -> out.append(indent).append(tensor(s.out())).append('\n')
                    .append(indent).append("   = ").append(g.selectName()).append("( ").append(tensor(s.in()))
                    .append(", axis = ").append(IrText.iterDomain(s.axis(), g))
                    .append(", index = ").append(scalar(s.index())).append(" )\n");
            // ShardByStream::toString (csrc/host_ir/ir.cpp:442)
            case ShardByStream s -> out.append(indent).append(tensor(s.out())).append(" = ShardByStream(")
                    .append(tensor(s.in())).append(", stream_index=").append(scalar(s.streamIndex())).append(")\n");
            // SymmetricContiguousView::toString (csrc/host_ir/ir.cpp:466)
            case SymmetricContiguousView v -> out.append(indent).append(tensor(v.out()))
                    .append(" = SymmetricContiguousView(").append(tensor(v.in())).append(")\n");
            case Communication c -> communication(c, indent, out);
            // CollectivePermute::toInlineString: the backend always, the peers inline
            case CollectivePermute c -> out.append(indent).append("CollectivePermute ").append(c.id())
                    .append(" (team=(").append(IrText.ids(c.team())).append("), send_peer=")
                    .append(scalar(c.sendPeer())).append(", recv_peer=").append(scalar(c.recvPeer()))
                    .append(", input=").append(tensor(c.input())).append(", output=").append(tensor(c.output()))
                    .append(", backend=").append(c.backend().dumpName()).append(")\n");
            case P2PCommunication p -> out.append(indent).append(p2p(p)).append('\n');
            // ShareMemHandles::toString: each communication inline followed by ", ", and no closing parenthesis
            case ShareMemHandles s -> {
                out.append(indent).append("ShareMemHandles(");
                for (P2PCommunication p : s.communications()) out.append(p2p(p)).append(", ");
                out.append('\n');
            }
            case StartCoalescing s -> out.append(indent).append("StartCoalescing\n");
            case EndCoalescing e -> out.append(indent).append("EndCoalescing ").append(e.id()).append('\n');
            case Wait w -> out.append(indent).append(call("Wait", "", "Communication " + w.communicationId()));
            case PostOnStream p -> kernel(p, indent, out);
            case HostOp o -> FusionOpPrinter.print(o.op(), indent, out, g);
            case LaunchKernel k -> launchKernel(k, indent, out);
            case MoeDispatch d -> out.append(indent).append(moeDispatch(d)).append('\n');
            case MoeCombine c -> out.append(indent).append(moeCombine(c)).append('\n');
            case OpaqueNode o -> o.lines().forEach(l -> out.append(indent).append(l).append('\n'));
        }
    }

    private void ifThenElse(IfThenElse i, String indent, StringBuilder out) {
        out.append(indent).append("IF Manual ").append(scalar(i.predicate())).append(":\n");
        for (HostNode n : i.thenBody()) print(n, indent + STEP, out);
        if (!i.elseBody().isEmpty()) {
            out.append(indent).append("ELSE:\n");
            for (HostNode n : i.elseBody()) print(n, indent + STEP, out);
        }
    }

    /** {@code Name(argument)} with the call syntax, {@code Name word argument} without; a line. */
    private String call(String name, String word, String argument) {
        if (g.callSyntax()) return name + "(" + argument + ")\n";
        return name + (word.isEmpty() ? "" : " " + word) + " " + argument + "\n";
    }

    /** MoeDispatch::toInlineString (csrc/multidevice/communication.cpp). */
    private String moeDispatch(MoeDispatch d) {
        return "Dispatch " + d.id() + " (num_experts=" + d.numExperts() + ", backend=" + d.backend().dumpName()
                + ", in=" + tensor(d.in()) + ", topk_idx=" + tensor(d.topkIdx()) + ", topk_weights="
                + tensor(d.topkWeights()) + ", out=" + tensor(d.out()) + ")";
    }

    /** MoeCombine::toInlineString (csrc/multidevice/communication.cpp). */
    private String moeCombine(MoeCombine c) {
        return "Combine " + c.id() + " (backend=" + c.backend().dumpName() + ", in=" + tensor(c.in())
                + ", topk_weights=" + tensor(c.topkWeights()) + ", src_idx=" + tensor(c.srcIdx()) + ", out="
                + tensor(c.out()) + ")";
    }

    /** kir::Allocate::toString (csrc/kernel_ir.cpp:548) or hir::Allocate::toString (csrc/host_ir/ir.cpp:527). */
    private void allocate(Allocate a, String indent, StringBuilder out) {
        out.append(indent).append(tensor(a.buffer())).append(" = ALLOCATE(");
        switch (a.form()) {
            case KERNEL_IR -> out.append("buffer=").append(tensor(a.buffer())).append(", mem_type=")
                    .append(a.memoryType().dumpName()).append(", size=").append(scalar(a.size()))
                    .append(", zero_init=").append(a.zeroInit()).append(", resets_to_zero=").append(a.resetsToZero())
                    .append(")\n").append(a.alias() == null ? "" : indent + STEP + ".alias=" + tensor(a.alias()) + "\n");
            case HOST_IR -> out.append("mem_type=").append(a.memoryType().dumpName()).append(", zero_init=")
                    .append(a.zeroInit()).append(")\n");
        }
    }

    private void communication(Communication c, String indent, StringBuilder out) {
        out.append(indent).append("Communication ").append(c.id()).append(" (type=")
                .append(c.type().dumpName()).append(", team=(").append(IrText.ids(c.team())).append(")");
        if (c.type().hasRoot()) out.append(", root=").append(scalar(c.root()));
        out.append(", input=").append(tensor(c.input())).append(", output=").append(tensor(c.output()));
        if (g.printsBackend()) out.append(", backend=").append(c.backend().dumpName());
        out.append(")\n");
    }

    /**
     * A kernel segment as the node its lowering made prints: host_ir_lowering's LaunchKernel (lowering.cpp:393-406 at
     * 81c4b22fd), or HostIrLower's PostOnStream (lower.cpp:154). nvFuser's LaunchKernel prints
     * {@code group.groupId()} (lowering.cpp:394): 0 for an unsegmented fusion (fusion_segmenter.cpp:341), else the
     * group's index in {@code SegmentedFusion::groups()} when the segmenter finalizes (lines 4857-4861), a list that
     * starts one group per expression (newGroup, 455-457), where each merge appends the joined group and erases its
     * two parts (mergeNodes, 1785-1800; eraseGroups, 1748-1759), communications and host ops counted. The id thus
     * records the order of the segmenter's merges, which its scheduler heuristics decide and the Studio does not
     * model: it prints the HostUnit's number, a stable stand-in (the kernels in the order segmentation made them).
     */
    private void kernel(PostOnStream p, String indent, StringBuilder out) {
        switch (p.launch()) {
            case LAUNCH_KERNEL -> launchKernel(new LaunchKernel(p.id(), p.unit().number(), p.inputs(), p.outputs()),
                    indent, out);
            case POST_ON_STREAM -> out.append(indent).append("PostOnStream (").append(p.unit().name())
                    .append(", Inputs:{").append(listed(p.inputs())).append("}, Outputs:{")
                    .append(listed(p.outputs())).append("})\n");
        }
    }

    /** LaunchKernel::toString (csrc/host_ir/ir.cpp:150): one field a line, one level deeper. */
    private void launchKernel(LaunchKernel k, String indent, StringBuilder out) {
        String in = indent + STEP;
        out.append(indent).append("LaunchKernel(\n")
                .append(in).append("Group ID: ").append(k.groupId()).append(",\n")
                .append(in).append("Inputs: {").append(String.join(", ", k.arguments(this::tensor, this::scalar)))
                .append("},\n")
                .append(in).append("Outputs: {").append(tensors(k.outputs(), ", ")).append("},\n")
                .append(indent).append(")\n");
    }

    /** P2PCommunication::toInlineString. */
    private String p2p(P2PCommunication p) {
        return "P2PCommunication " + p.id() + " (type=" + p.type().dumpName() + ", buffer=" + tensor(p.buffer())
                + ", peer=" + scalar(p.peer()) + ", backend=" + p.backend().dumpName() + ")";
    }

    /** nvFuser prints a HostUnit's header, then its fusion's math, after the top-level nodes. */
    private void printHostUnit(HostUnit u, StringBuilder out) {
        out.append(u.name()).append(": Inputs={").append(listed(u.inputs())).append("} -> Outputs={")
                .append(listed(u.outputs())).append("}");
        out.append(FusionPrinter.printMath(u.inputs(), u.outputs(), u.ops(), g));
    }

    private String tensors(List<TensorView> tvs, String sep) {
        return tvs.stream().map(this::tensor).collect(Collectors.joining(sep));
    }

    /** Each tensor followed by ", ", as nvFuser's PostOnStream and HostUnit print them. */
    private String listed(List<TensorView> tvs) {
        return tvs.stream().map(t -> tensor(t) + ", ").collect(Collectors.joining());
    }

    static void printOps(List<FusionOp> ops, String indent, StringBuilder out, NvFuserGeneration g) {
        for (FusionOp op : ops) FusionOpPrinter.print(op, indent, out, g);
    }
}
