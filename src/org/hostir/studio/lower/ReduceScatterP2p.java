package org.hostir.studio.lower;

import java.util.List;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.print.IrText;

/**
 * nvFuser's "MM + RS p2p based algorithm" (processForLoopBodies at the newest revision, 81c4b22fd, taken when a
 * loop body expr goes DID to Stream on its input's first axis and Stream to DID on its output, with
 * offset_stream_indexing_by_rank). The set {@code [DIDx D, Stream D, ...] -> [Stream D, DIDx D, ...]} follows a
 * local matmul whose Stream slice {@code t} is this rank's partial product for output chunk {@code t}: iteration
 * i sends the slice {@code t = (rank + i) % D} to rank t and receives into slot {@code (D + rank - i) % D} the
 * partial that rank computed for this rank's chunk; a sum over the slots after the loop finishes the
 * ReduceScatter. The rank's own partial is a local copy.
 */
final class ReduceScatterP2p {
    private ReduceScatterP2p() {}

    /**
     * The set from {@code [DIDx, Stream, ...]} to {@code [Stream, DIDx, ...]} (one DID type on both sides). A
     * Stream axis made by swizzle1d is nvFuser's newest CollectivePermute path instead (lowering.cpp, not
     * processForLoopBodies), so neither side may have one.
     */
    static boolean matches(FusionOp op) {
        if (!(op instanceof FusionOp.Set s) || s.isPermute()) return false;
        TensorView in = s.input();
        TensorView out = s.output();
        if (in.rank() < 2 || out.rank() < 2) return false;
        if (SwizzledStream.of(in).isPresent() || SwizzledStream.of(out).isPresent()) return false;
        IterDomain i0 = in.axis(0);
        return i0.isDeviceDim() && !i0.isReduction() && in.axis(1).isStream() && out.axis(0).isStream()
                && out.axis(1).isDeviceDim() && out.axis(1).parallelType() == i0.parallelType();
    }

    /** The output axis the loop runs over: the DIDx one, which nvFuser's IdModel maps to the input's Stream axis. */
    static int loopAxisInOutput() { return 1; }

    /**
     * What processForLoopBodies asserts: only the two swapped axes are sharded; and a 1-D mesh, whose positions
     * the slices count (nvFuser uses the device id, {@code rank}, as position and peer: the same on {0 .. n-1},
     * where this lowering prints it so; on another mesh positions and peers are looked up in the mesh).
     */
    static void check(FusionOp.Set set) {
        TensorView in = set.input();
        TensorView out = set.output();
        DeviceMesh mesh = in.mesh();
        if (mesh == null || mesh.rank() != 1) {
            throw new LoweringException(set, "stream.reduce-scatter-p2p-mesh", "the P2P ReduceScatter (a set from"
                    + " [DIDx, Stream, ...] to [Stream, DIDx, ...]) exchanges along a 1-D mesh; here "
                    + Texts.quote(in.label())
                    + " is on " + IrText.mesh(mesh));
        }
        for (TensorView tv : List.of(in, out)) {
            for (int i = 2; i < tv.rank(); i++) {
                if (tv.axis(i).isDeviceDim() && !tv.axis(i).isReduction()) {
                    throw new LoweringException(set, "stream.reduce-scatter-p2p-axes", "the P2P ReduceScatter"
                            + " swaps the first two axes' DIDx and Stream and keeps the others whole; axis " + i
                            + " of " + Texts.quote(tv.label()) + " is sharded too: shard it in a set after");
                }
            }
        }
    }

    /**
     * Iteration {@code StreamIdx}'s slice positions, the slice sent ({@code tensorIndex}) and the slot received
     * into ({@code recvIndex}), this rank's position ({@code self}) and the device ids of the two peers.
     */
    record Peers(Scalar tensorIndex, Scalar recvIndex, Scalar self, Scalar sendPeer, Scalar recvPeer) {
        /**
         * nvFuser's {@code (rank + i) % D} and {@code (D + (rank - i)) % D}, {@code rank} being this rank's
         * position in the mesh (its device id on {0 .. n-1}, as nvFuser has it); with the own slice last (a
         * project option, not nvFuser) {@code i + 1} stands for {@code i}, so the local copy comes last.
         */
        static Peers of(Scalar extent, boolean ownSliceLast, DeviceMesh mesh) {
            Scalar i = ownSliceLast ? Scalar.add(NamedScalar.STREAM_IDX, Scalar.constant(1)) : NamedScalar.STREAM_IDX;
            Scalar self = mesh == null || MeshLookup.isIdentity(mesh) ? NamedScalar.DEVICE_ID
                    : Scalar.positionIn(mesh);
            Scalar tensorIndex = Scalar.mod(Scalar.add(self, i), extent);
            Scalar recvIndex = Scalar.mod(Scalar.add(extent, Scalar.sub(self, i)), extent);
            return mesh == null ? new Peers(tensorIndex, recvIndex, self, tensorIndex, recvIndex)
                    : new Peers(tensorIndex, recvIndex, self, Scalar.deviceAt(mesh, tensorIndex),
                            Scalar.deviceAt(mesh, recvIndex));
        }
    }

    /**
     * The IF on {@code tensorIndex == rank}: a local copy, else the exchange. NCCL: a coalesced recv and send
     * and a Wait on the group. CUDA: ShareMemHandles, then send and recv in the order of {@code protocol}
     * (stream_parallel_type.cpp:436-453 at 81c4b22fd: Get posts the send first, Put the recv), a Wait on the
     * recv; the Wait on the send goes to {@code epilogue}, an IF on the same predicate at the loop body's end
     * (lines 454-460).
     */
    static HostNode exchange(HostIrBuilder h, HostOp set, Builder from, TensorView inSlice, TensorView outSlice,
                             Peers peers, CommunicatorBackend backend, P2pProtocol protocol,
                             List<HostNode> epilogue) {
        Scalar toSelf = Scalar.eq(peers.tensorIndex(), peers.self());
        HostNode copy = new HostOp(set.id(), new FusionOp.Set(outSlice, inSlice));
        P2PCommunication recv = from.node(h.p2p(P2PCommunication.Type.RECV, outSlice, peers.recvPeer(), backend));
        P2PCommunication send = from.node(h.p2p(P2PCommunication.Type.SEND, inSlice, peers.sendPeer(), backend));
        List<HostNode> remote = switch (backend) {
            case NCCL -> {
                var start = from.node(h.startCoalescing());
                EndCoalescing end = from.node(h.endCoalescing());
                yield List.of(start, recv, send, end, from.node(h.waitFor(end)));
            }
            case CUDA -> cudaExchange(h, from, recv, send, toSelf, protocol, epilogue);
        };
        return from.node(h.ifThenElse(toSelf, List.of(copy), remote));
    }

    /**
     * The CUDA backend's side of a P2P exchange, the same in processForLoopBodies' allgather and MM + RS branches
     * (stream_parallel_type.cpp:435-461 and 611-636 at 81c4b22fd): ShareMemHandles, send and recv in the order of
     * {@code protocol}, a Wait on the recv; the Wait on the send deferred to {@code epilogue} in an IF on the same
     * predicate.
     */
    static List<HostNode> cudaExchange(HostIrBuilder h, Builder from, P2PCommunication recv, P2PCommunication send,
                                       Scalar toSelf, P2pProtocol protocol, List<HostNode> epilogue) {
        var share = from.node(h.shareMemHandles(List.of(recv, send)));
        epilogue.add(from.node(h.ifThenElse(toSelf, List.of(), List.of(from.node(h.waitFor(send))))));
        List<HostNode> posted = switch (protocol) {
            case GET -> List.of(send, recv);
            case PUT -> List.of(recv, send);
        };
        return List.of(share, posted.get(0), posted.get(1), from.node(h.waitFor(recv)));
    }

    /** Marks a new node as lowered from the set. */
    interface Builder {
        <N extends HostNode> N node(N node);
    }
}
