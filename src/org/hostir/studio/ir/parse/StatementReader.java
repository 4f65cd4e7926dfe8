package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * Reads one statement at the cursor, in the forms {@code HostIrPrinter} writes (docs/host-ir-dump-format.md).
 * Statements that start with a tensor (ALLOCATE, the slice, host ops) are {@link TensorStatements}'. Throws
 * {@link DumpFormatException} for anything else; the caller keeps such a statement as text.
 */
final class StatementReader {
    private final DumpCursor in;
    private final ReadState state;
    private final DumpValues values;
    private final TensorStatements tensorStatements;

    StatementReader(DumpCursor in, ReadState state) {
        this.in = in;
        this.state = state;
        this.values = new DumpValues(in, state);
        this.tensorStatements = new TensorStatements(in, state, values);
    }

    DumpValues values() { return values; }

    Statement read(boolean layoutKept) {
        in.skipWs();
        int start = in.pos();
        int column = layoutKept ? column(start) : -1;
        if (in.accept("ELSE:")) return new Statement(Statement.Kind.ELSE, null, null, start, in.pos(), column);
        if (in.peek("HostUnit")) {
            HostUnit unit = new HostUnitReader(in, state, values, tensorStatements).definition();
            return new Statement(Statement.Kind.UNIT, null, unit, start, in.pos(), column);
        }
        HostNode node = node();
        return new Statement(Statement.Kind.NODE, node, null, start, in.pos(), column);
    }

    private int column(int offset) {
        int lineStart = in.text().lastIndexOf('\n', offset - 1) + 1;
        return offset - lineStart;
    }

    private HostNode node() {
        if (in.next() == 'T') return tensorStatements.read();
        String keyword = in.word();
        return switch (keyword) {
            case "FOR" -> forHeader();
            case "IF" -> {
                in.expect("Manual");
                Scalar predicate = values.scalar();
                in.expect(":");
                yield new IfThenElse(state.freshNodeId(), predicate, List.of(), List.of());
            }
            case "GetCurrentStream" -> {
                in.expect("into");
                words("GetCurrentStream into");
                yield new GetCurrentStream(state.freshNodeId(), values.stream());
            }
            // GetCurrentStream::toString at 81c4b22fd: "Stream 0x.. = GetCurrentStream()"
            case "Stream" -> {
                Stream stream = values.streamAfterKeyword();
                in.expect("=");
                in.expect("GetCurrentStream()");
                state.saw("Stream .. = GetCurrentStream()", NvFuserGeneration.V2026_04);
                yield new GetCurrentStream(state.freshNodeId(), stream);
            }
            case "SetCurrentStream" -> new SetCurrentStream(state.freshNodeId(), streamArgument("to"));
            case "Synchronize" -> new Synchronize(state.freshNodeId(), streamArgument(""));
            case "LaunchKernel" -> launchKernel();
            case "Dispatch" -> moeDispatch();
            case "Combine" -> moeCombine();
            case "Communication" -> communication();
            case "P2PCommunication" -> p2p();
            case "ShareMemHandles" -> shareMemHandles();
            case "CollectivePermute" -> collectivePermute();
            case "StartCoalescing" -> new StartCoalescing(state.freshNodeId());
            case "EndCoalescing" -> new EndCoalescing(in.intNumber());
            case "Wait" -> {
                boolean call = in.accept("(");
                in.expect("Communication");
                Wait w = new Wait(state.freshNodeId(), in.intNumber());
                if (call) {
                    in.expect(")");
                    state.saw("Wait(Communication ..)", NvFuserGeneration.V2026_04);
                } else {
                    words("Wait Communication");
                }
                yield w;
            }
            case "PostOnStream" -> postOnStream();
            case "Deallocate" -> {
                in.expect("{");
                TensorView buffer = values.tensor();
                in.expect("}");
                yield new Deallocate(state.freshNodeId(), buffer);
            }
            default -> throw new DumpFormatException("unknown statement '" + keyword + "'", in.pos());
        };
    }

    /**
     * {@code FOR StreamIdx in iStreamIdx2{i0}:} (kir::ForLoop; the index tells the generation: {@code StreamIdx}
     * the seeds', {@code streamIdx} main's, stringifyThread at csrc/type.cpp:781) or {@code FOR i535 from 0 to 3:}
     * (hir::ForLoop).
     */
    private ForLoop forHeader() {
        String index = in.word();
        if (in.accept("from")) {
            Scalar start = values.scalar();
            in.expect("to");
            Scalar stop = values.scalar();
            in.expect(":");
            state.saw("FOR .. from .. to", NvFuserGeneration.V2026_04);
            return ForLoop.range(state.freshNodeId(), new NamedScalar(index), start, stop, List.of());
        }
        in.expect("in");
        var axis = values.iterDomain();
        in.expect(":");
        switch (index) {
            case "StreamIdx" -> state.saw("loop index StreamIdx", NvFuserGeneration.V2025_06);
            case "streamIdx" -> state.saw("loop index streamIdx", NvFuserGeneration.V2026_04);
            default -> state.saw("loop index " + index, NvFuserGeneration.EARLY_2024, NvFuserGeneration.EARLY_2025);
        }
        return new ForLoop(state.freshNodeId(), new NamedScalar(index), axis, Scalar.constant(0), axis.extent(),
                List.of());
    }

    /** {@code (Stream ..)} (main's call syntax) or {@code [word] Stream ..} (the earlier ones'). */
    private Stream streamArgument(String word) {
        if (in.accept("(")) {
            Stream s = values.stream();
            in.expect(")");
            state.saw("SetCurrentStream(..), Synchronize(..)", NvFuserGeneration.V2026_04);
            return s;
        }
        if (!word.isEmpty()) in.expect(word);
        words("SetCurrentStream to, Synchronize Stream");
        return values.stream();
    }

    /** A stream or wait node spelled with words, as nvFuser printed them before #5746. */
    private void words(String spelling) {
        state.saw(spelling, NvFuserGeneration.where(g -> !g.callSyntax()));
    }

    /**
     * LaunchKernel::toString (csrc/host_ir/ir.cpp:150-158): {@code LaunchKernel( Group ID: 0, Inputs: {..},
     * Outputs: {..}, )}, the inputs each Val's toString (toDelimitedString), tensors and scalars alike.
     */
    private LaunchKernel launchKernel() {
        in.expect("(");
        in.expect("Group ID:");
        int group = in.intNumber();
        in.expect(",");
        in.expect("Inputs: {");
        List<TensorView> inputs = new ArrayList<>();
        List<LaunchKernel.ScalarInput> scalars = new ArrayList<>();
        if (!in.accept("}")) {
            do {
                int position = inputs.size() + scalars.size();
                if (values.atTensor()) inputs.add(values.tensor());
                else scalars.add(new LaunchKernel.ScalarInput(position, values.scalarVal()));
            } while (in.accept(","));
            in.expect("}");
        }
        in.expect(",");
        in.expect("Outputs: {");
        List<TensorView> outputs = values.separated('}');
        in.expect(",");
        in.expect(")");
        state.saw("LaunchKernel", NvFuserGeneration.V2025_06, NvFuserGeneration.V2026_04);
        return new LaunchKernel(state.freshNodeId(), group, inputs, outputs, scalars);
    }

    /** {@code Dispatch 12 (num_experts=4, backend=NCCL, in=.., topk_idx=.., topk_weights=.., out=..)}. */
    private MoeDispatch moeDispatch() {
        int id = in.intNumber();
        in.expect("(num_experts=");
        long experts = in.number();
        CommunicatorBackend backend = nextBackend();
        TensorView x = nextTensor("in=");
        TensorView idx = nextTensor("topk_idx=");
        TensorView weights = nextTensor("topk_weights=");
        TensorView out = nextTensor("out=");
        in.expect(")");
        state.saw("Dispatch", NvFuserGeneration.V2026_04);
        return new MoeDispatch(id, experts, backend, x, idx, weights, out);
    }

    /** {@code Combine 13 (backend=NCCL, in=.., topk_weights=.., src_idx=.., out=..)}. */
    private MoeCombine moeCombine() {
        int id = in.intNumber();
        in.expect("(backend=");
        CommunicatorBackend backend = backend(in.word());
        TensorView x = nextTensor("in=");
        TensorView weights = nextTensor("topk_weights=");
        TensorView src = nextTensor("src_idx=");
        TensorView out = nextTensor("out=");
        in.expect(")");
        state.saw("Combine", NvFuserGeneration.V2026_04);
        return new MoeCombine(id, backend, x, weights, src, out);
    }

    private Communication communication() {
        int id = in.intNumber();
        in.expect("(type=");
        String typeName = in.word();
        CommunicationType type = communicationType(typeName);
        in.expect(",");
        in.expect("team=(");
        List<Integer> team = values.ids(')');
        in.expect(",");
        Scalar root = null;
        if (in.accept("root=")) {
            root = values.scalar();
            in.expect(",");
        }
        in.expect("input=");
        TensorView input = values.tensor();
        TensorView output = nextTensor("output=");
        CommunicatorBackend backend = CommunicatorBackend.NCCL;
        if (in.accept(",")) {
            in.expect("backend=");
            backend = backend(in.word());
            state.saw("Communication backend=", NvFuserGeneration.where(NvFuserGeneration::printsBackend));
        } else {
            state.saw("Communication without backend=", NvFuserGeneration.where(g -> !g.printsBackend()));
        }
        in.expect(")");
        // nvFuser's dump does not print a collective's reduction: the seeds' (and the Studio's) is a sum
        return new Communication(id, type, team, root, input, output, type.reduces() ? ReductionOpType.SUM : null,
                backend);
    }

    private CommunicationType communicationType(String name) {
        for (CommunicationType t : CommunicationType.values()) {
            if (t.dumpName().equals(name)) return t;
        }
        throw new DumpFormatException("unknown communication type '" + name + "'", in.pos());
    }

    /** The next {@code , key=value} field of a statement's parenthesised list. */
    private TensorView nextTensor(String key) {
        in.expect(",");
        in.expect(key);
        return values.tensor();
    }

    private Scalar nextScalar(String key) {
        in.expect(",");
        in.expect(key);
        return values.scalar();
    }

    private CommunicatorBackend nextBackend() {
        in.expect(",");
        in.expect("backend=");
        return backend(in.word());
    }

    private CommunicatorBackend backend(String name) {
        for (CommunicatorBackend b : CommunicatorBackend.values()) {
            if (b.dumpName().equals(name)) return b;
        }
        throw new DumpFormatException("unknown communicator backend '" + name + "'", in.pos());
    }

    /** {@code CollectivePermute 12 (team=(0 1), send_peer=.., recv_peer=.., input=.., output=.., backend=NCCL)}. */
    private CollectivePermute collectivePermute() {
        int id = in.intNumber();
        in.expect("(team=(");
        List<Integer> team = values.ids(')');
        Scalar send = nextScalar("send_peer=");
        Scalar recv = nextScalar("recv_peer=");
        TensorView input = nextTensor("input=");
        TensorView output = nextTensor("output=");
        CommunicatorBackend backend = nextBackend();
        in.expect(")");
        return new CollectivePermute(id, output, input, team, send, recv, backend);
    }

    /**
     * ShareMemHandles::toString: {@code (}, each P2P inline followed by {@code ,}, no closing parenthesis, so the
     * list ends at the line's end, or (a dump without line breaks) where a P2P it already named comes again: the
     * standalone statements that follow it.
     */
    private ShareMemHandles shareMemHandles() {
        in.expect("(");
        List<P2PCommunication> named = new ArrayList<>();
        while (!lineEnds() && named.stream().noneMatch(p -> in.peek("P2PCommunication " + p.id() + " "))
                && in.accept("P2PCommunication")) {
            named.add(p2p());
            in.expect(",");
        }
        return new ShareMemHandles(state.freshNodeId(), named);
    }

    /** Whether only blanks are left on the cursor's line. */
    private boolean lineEnds() {
        while (in.here() == ' ' || in.here() == '\t') in.advance();
        return in.here() == '\n' || in.here() == '\r' || in.here() == 0;
    }

    private P2PCommunication p2p() {
        int id = in.intNumber();
        in.expect("(type=");
        String typeName = in.word();
        P2PCommunication.Type type = null;
        for (P2PCommunication.Type t : P2PCommunication.Type.values()) {
            if (t.dumpName().equals(typeName)) type = t;
        }
        if (type == null) throw new DumpFormatException("unknown P2P type '" + typeName + "'", in.pos());
        TensorView buffer = nextTensor("buffer=");
        Scalar peer = nextScalar("peer=");
        CommunicatorBackend backend = nextBackend();
        in.expect(")");
        return new P2PCommunication(id, type, buffer, peer, backend);
    }

    /** The HostUnit is a placeholder (number and signature) until its definition, after the nodes, is read. */
    private PostOnStream postOnStream() {
        in.expect("(");
        in.expect("HostUnit");
        int number = in.intNumber();
        state.sawHostUnit(number);
        in.expect(",");
        in.expect("Inputs:{");
        List<TensorView> inputs = values.listed('}');
        in.expect(",");
        in.expect("Outputs:{");
        List<TensorView> outputs = values.listed('}');
        in.expect(")");
        return new PostOnStream(state.freshNodeId(), new HostUnit(number, inputs, outputs, List.of()), inputs,
                outputs);
    }
}
