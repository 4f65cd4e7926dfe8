package org.hostir.studio.exec.cuda;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * One device's transfers on the copy engines (Host IR's {@code backend=cuda}): point-to-point sends and receives
 * matched through the backend's {@link CopyEngine}, and the peer pulls that they and {@link CopyEngineCollectives}
 * are made of (cuMemcpyPeerAsync, no SMs).
 */
final class PeerCopies {
    /** A piece smaller than this is not worth a stream of its own. */
    private static final long MIN_PIECE_BYTES = 4L << 20;

    private final CudaDevice d;
    /** Streams of the device's own for the pieces of a split peer copy (each piece may take another copy engine). */
    private final List<Long> copyStreams = new ArrayList<>();

    PeerCopies(CudaDevice d) { this.d = d; }

    /** The calls by the backend's protocol ({@code p2pProtocol}: nvFuser's Get unless Put is chosen). */
    void pointToPoint(List<P2PCall> calls, List<CopyEngine.Key> keys, CudaStream s) {
        Runnable protocol = switch (d.backend.p2pProtocol()) {
            case GET -> () -> get(calls, keys, s);
            case PUT -> () -> put(calls, keys, s);
        };
        protocol.run();
    }

    /**
     * nvFuser's Get protocol (sendPost, recvPost, sendWait: csrc/multidevice/cuda_p2p.cpp:1217-1242, 1270-1277,
     * 1305-1314 at 81c4b22fd): sends post first ("ready"), then receives pull on the receiver's stream, then sends
     * wait for their copies: no two ranks wait on each other.
     */
    private void get(List<P2PCall> calls, List<CopyEngine.Key> keys, CudaStream s) {
        CopyEngine ce = d.backend.copyEngine();
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() != P2PCommunication.Type.SEND) continue;
            CudaBuffer b = d.contiguousOrFail(calls.get(i));
            long ready = d.recordEvent(s.handle());
            ce.post(keys.get(i), new CopyEngine.Posted(b.address(), d.context, ready, b.bytes()));
        }
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() != P2PCommunication.Type.RECV) continue;
            CudaBuffer b = d.contiguousOrFail(calls.get(i));
            CopyEngine.Posted p = ce.awaitSend(keys.get(i), d.backend);
            if (p.bytes() != b.bytes()) d.backend.fail("rank " + d.rank + " receives " + b.bytes() + " bytes from "
                    + calls.get(i).peer() + ", which sent " + p.bytes());
            d.driver.waitEvent(s.handle(), p.readyEvent());
            pull(b.address(), p.address(), p.context(), b.bytes(), s);
            ce.copied(keys.get(i), d.recordEvent(s.handle()));
        }
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() == P2PCommunication.Type.SEND) {
                d.driver.waitEvent(s.handle(), ce.awaitCopied(keys.get(i), d.backend));
            }
        }
    }

    /**
     * nvFuser's Put protocol (recvPost, sendPost, recvWait: cuda_p2p.cpp:1243-1246, 1278-1298, 1253-1262): receives
     * post their buffers first ("ready"), then sends push into them on the sender's stream once the receiver's
     * stream has reached its receive, then receives wait for the pushes. The copy engines move the bytes either way;
     * what changes is whose stream carries the copy.
     */
    private void put(List<P2PCall> calls, List<CopyEngine.Key> keys, CudaStream s) {
        CopyEngine ce = d.backend.copyEngine();
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() != P2PCommunication.Type.RECV) continue;
            CudaBuffer b = d.contiguousOrFail(calls.get(i));
            ce.post(keys.get(i), new CopyEngine.Posted(b.address(), d.context, d.recordEvent(s.handle()), b.bytes()));
        }
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() != P2PCommunication.Type.SEND) continue;
            CudaBuffer b = d.contiguousOrFail(calls.get(i));
            CopyEngine.Key k = keys.get(i);
            CopyEngine.Posted p = ce.awaitPosted(k, "send on rank " + k.from() + " waits for recv #" + k.sequence()
                    + " on rank " + k.to() + " to be posted", d.backend);
            if (p.bytes() != b.bytes()) d.backend.fail("rank " + d.rank + " sends " + b.bytes() + " bytes to "
                    + calls.get(i).peer() + ", which receives " + p.bytes());
            d.driver.waitEvent(s.handle(), p.readyEvent());
            copy(p.address(), p.context(), b.address(), d.context, b.bytes(), s);
            ce.copied(k, d.recordEvent(s.handle()));
        }
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).type() == P2PCommunication.Type.RECV) {
                d.driver.waitEvent(s.handle(), ce.awaitCopied(keys.get(i), d.backend));
            }
        }
    }

    /**
     * {@code bytes} from a peer's {@code src} into this device's {@code dst}, ordered on {@code s}: one
     * cuMemcpyPeerAsync, or with {@link CudaBackend#copyPieces()} over 1, that many on streams of their own, forked
     * from and joined back into {@code s}, so that several copy engines may move one transfer.
     */
    void pull(long dst, long src, long srcContext, long bytes, CudaStream s) {
        copy(dst, d.context, src, srcContext, bytes, s);
    }

    /** {@code bytes} from {@code src} to {@code dst}, either of them a peer's, as {@link #pull} splits them. */
    private void copy(long dst, long dstContext, long src, long srcContext, long bytes, CudaStream s) {
        int pieces = (int) Math.min(d.backend.copyPieces(), bytes / MIN_PIECE_BYTES);
        if (pieces <= 1) {
            d.driver.copyPeerAsync(dst, dstContext, src, srcContext, bytes, s.handle());
            return;
        }
        long fork = d.recordEvent(s.handle());
        long step = ((bytes + pieces - 1) / pieces + 255) / 256 * 256;
        for (int j = 0; j * step < bytes; j++) {
            while (copyStreams.size() <= j) copyStreams.add(d.driver.createStream());
            long cs = copyStreams.get(j);
            long length = Math.min(step, bytes - j * step);
            d.driver.waitEvent(cs, fork);
            d.driver.copyPeerAsync(dst + j * step, dstContext, src + j * step, srcContext, length, cs);
            d.join(s.handle(), cs);
        }
    }
}
