package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;

/**
 * One device as the evaluator of one rank drives it. Everything that touches data is enqueued on a stream and
 * returns at once; only {@link #synchronize()} and {@link #download} make the host wait. Collectives and
 * point-to-point transfers match across ranks in posting order per communicator, as NCCL does.
 */
public interface Device {

    int rank();

    /** The stream current when the program starts ({@code Stream 0}). */
    BackendStream userStream();

    /**
     * Stream {@code index} of the device's pool, created on first use: 0 is {@link #userStream()}, the others
     * worker streams. Runs reuse the same streams, as a CUDA stream pool does.
     */
    BackendStream stream(int index);

    /** A new buffer; counted in the device's memory until freed. */
    Buffer allocate(long[] shape, DataType dtype);

    /** Releases a buffer once the work enqueued on {@code stream} so far is done. */
    void free(Buffer buffer, BackendStream stream);

    /** A view of {@code buffer} at {@code index} along {@code axis}, that axis dropped. Never a copy. */
    Buffer select(Buffer buffer, int axis, long index);

    /**
     * A view of {@code length} indices of {@code axis} from {@code start}, the axis kept (a chunk, as
     * {@code at::Tensor::chunk} gives nvFuser's ShardByStream). Never a copy.
     */
    Buffer narrow(Buffer buffer, int axis, long start, long length);

    /** A view with the axes permuted: axis i of the view is axis {@code perm[i]} of the buffer. */
    Buffer permute(Buffer buffer, int[] perm);

    void copy(Buffer dst, Buffer src, BackendStream stream, OpInfo info);

    /** Runs a fusion op (matmul, linear, pointwise, reduction, broadcast, set) into {@code output}. */
    void compute(FusionOp op, List<Buffer> inputs, Buffer output, BackendStream stream, OpInfo info);

    BackendEvent record(BackendStream stream);

    /** Work enqueued on {@code stream} after this waits for {@code event}; the host does not block. */
    void waitEvent(BackendStream stream, BackendEvent event);

    Work collective(CollectiveCall call, BackendStream stream, OpInfo info);

    /** Sends and receives posted together (an NCCL group); a single call outside a group is a group of one. */
    Work pointToPoint(List<P2PCall> calls, BackendStream stream, OpInfo info);

    void waitWork(BackendStream stream, Work work);

    /** The host waits for every stream of this device. */
    void synchronize();

    Buffer upload(DenseTensor host);

    /** A host copy of the buffer's current contents; call after {@link #synchronize()}. */
    DenseTensor download(Buffer buffer);

    /** A host dispatch bar (the evaluator issuing a node) between two {@code System.nanoTime()} readings. */
    void recordHost(OpInfo info, long startNanoTime, long endNanoTime);

    long liveBytes();

    long peakBytes();
}
