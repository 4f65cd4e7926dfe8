package org.hostir.studio.exec.debug;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.exec.Work;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * A rank's device as its evaluator sees it under the debugger: the backend's own, noting which buffers something
 * has been issued to write (a kernel's output, a copy's destination, a collective's output, a receive's buffer, an
 * upload), a view's writes counting for the buffer it views. An allocated buffer nothing has written yet holds no
 * value of the program (zeros on the CPU, whatever the memory held on CUDA), so a stop shows it as not written yet
 * rather than as values that differ from the reference. Everything else is the backend's device unchanged.
 */
final class WriteTracking implements Device {
    private final Device device;
    private final Map<Buffer, Buffer> viewed = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Set<Buffer> written = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    WriteTracking(Device device) { this.device = device; }

    /** Whether something has been issued to write {@code b} (or the buffer it is a view of), in part or whole. */
    boolean written(Buffer b) { return written.contains(base(b)); }

    private Buffer base(Buffer b) {
        Buffer at = b;
        for (Buffer up = viewed.get(at); up != null; up = viewed.get(at)) at = up;
        return at;
    }

    private void write(Buffer b) { written.add(base(b)); }

    private Buffer view(Buffer view, Buffer of) {
        viewed.put(view, of);
        return view;
    }

    @Override
    public int rank() { return device.rank(); }

    @Override
    public BackendStream userStream() { return device.userStream(); }

    @Override
    public BackendStream stream(int index) { return device.stream(index); }

    @Override
    public Buffer allocate(long[] shape, DataType dtype) { return device.allocate(shape, dtype); }

    @Override
    public void free(Buffer buffer, BackendStream stream) { device.free(buffer, stream); }

    @Override
    public Buffer select(Buffer buffer, int axis, long index) {
        return view(device.select(buffer, axis, index), buffer);
    }

    @Override
    public Buffer narrow(Buffer buffer, int axis, long start, long length) {
        return view(device.narrow(buffer, axis, start, length), buffer);
    }

    @Override
    public Buffer permute(Buffer buffer, int[] perm) { return view(device.permute(buffer, perm), buffer); }

    @Override
    public void copy(Buffer dst, Buffer src, BackendStream stream, OpInfo info) {
        write(dst);
        device.copy(dst, src, stream, info);
    }

    @Override
    public void compute(FusionOp op, List<Buffer> inputs, Buffer output, BackendStream stream, OpInfo info) {
        write(output);
        device.compute(op, inputs, output, stream, info);
    }

    @Override
    public BackendEvent record(BackendStream stream) { return device.record(stream); }

    @Override
    public void waitEvent(BackendStream stream, BackendEvent event) { device.waitEvent(stream, event); }

    @Override
    public Work collective(CollectiveCall call, BackendStream stream, OpInfo info) {
        if (call.output() != null) write(call.output());
        return device.collective(call, stream, info);
    }

    @Override
    public Work pointToPoint(List<P2PCall> calls, BackendStream stream, OpInfo info) {
        for (P2PCall c : calls) if (c.type() == P2PCommunication.Type.RECV) write(c.buffer());
        return device.pointToPoint(calls, stream, info);
    }

    @Override
    public void waitWork(BackendStream stream, Work work) { device.waitWork(stream, work); }

    @Override
    public void synchronize() { device.synchronize(); }

    @Override
    public Buffer upload(DenseTensor host) {
        Buffer b = device.upload(host);
        write(b);
        return b;
    }

    @Override
    public DenseTensor download(Buffer buffer) { return device.download(buffer); }

    @Override
    public void recordHost(OpInfo info, long startNanoTime, long endNanoTime) {
        device.recordHost(info, startNanoTime, endNanoTime);
    }

    @Override
    public long liveBytes() { return device.liveBytes(); }

    @Override
    public long peakBytes() { return device.peakBytes(); }
}
