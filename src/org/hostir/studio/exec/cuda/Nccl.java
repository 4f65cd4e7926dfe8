package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;

/**
 * NCCL (libnccl.so.2) through java.lang.foreign: signatures from nccl.h 2.28. Communicators and streams are raw
 * handles in {@code long}s; ncclDataType_t, ncclRedOp_t and ncclResult_t are C ints.
 */
@SuppressWarnings("restricted")
final class Nccl {
    static final int ncclInProgress = 7;

    private final MethodHandle getErrorString, commInitAll, commAbort, commGetAsyncError, groupStart, groupEnd,
            allGather, allReduce, reduceScatter, broadcast, reduce, send, recv, getVersion, getUniqueId, commInitRank;

    /** ncclUniqueId: 128 opaque bytes, passed by value to ncclCommInitRank. */
    static final int UNIQUE_ID_BYTES = 128;
    private static final MemoryLayout UNIQUE_ID = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(UNIQUE_ID_BYTES, JAVA_BYTE).withName("internal"));

    Nccl() {
        NativeLib l = NativeLib.open("NCCL", "HIRSTUDIO_LIBNCCL", "libnccl.so.2", "libnccl.so");
        getErrorString = l.fn("ncclGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        getVersion = l.fn("ncclGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        commInitAll = l.fn("ncclCommInitAll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        getUniqueId = l.fn("ncclGetUniqueId", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // (ncclComm_t* comm, int nranks, ncclUniqueId commId (by value), int rank)
        commInitRank = l.fn("ncclCommInitRank", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, UNIQUE_ID, JAVA_INT));
        commAbort = l.fn("ncclCommAbort", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        commGetAsyncError = l.fn("ncclCommGetAsyncError", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
        groupStart = l.fn("ncclGroupStart", FunctionDescriptor.of(JAVA_INT));
        groupEnd = l.fn("ncclGroupEnd", FunctionDescriptor.of(JAVA_INT));
        // (sendbuff, recvbuff, sendcount, datatype, comm, stream)
        allGather = l.fn("ncclAllGather", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT,
                JAVA_LONG, JAVA_LONG));
        // (sendbuff, recvbuff, count, datatype, op, comm, stream)
        allReduce = l.fn("ncclAllReduce", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT,
                JAVA_INT, JAVA_LONG, JAVA_LONG));
        // (sendbuff, recvbuff, recvcount, datatype, op, comm, stream)
        reduceScatter = l.fn("ncclReduceScatter", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
        // (sendbuff, recvbuff, count, datatype, root, comm, stream)
        broadcast = l.fn("ncclBroadcast", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT,
                JAVA_INT, JAVA_LONG, JAVA_LONG));
        // (sendbuff, recvbuff, count, datatype, op, root, comm, stream)
        reduce = l.fn("ncclReduce", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT,
                JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
        // (buff, count, datatype, peer, comm, stream)
        send = l.fn("ncclSend", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG,
                JAVA_LONG));
        recv = l.fn("ncclRecv", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG,
                JAVA_LONG));
    }

    static int dataType(DataType t) {
        return switch (t) {
            case FLOAT -> 7;
            case HALF -> 6;
            case BFLOAT16 -> 9;
            case INT64 -> 4;
            case DOUBLE -> 8;
            case INT32 -> 2;
            case BOOL -> 1; // ncclUint8, as torch.distributed sends bool
            case FLOAT8_E4M3FN -> 10; // ncclFloat8e4m3 (NCCL 2.24 and newer)
            case FLOAT8_E5M2 -> 11; // ncclFloat8e5m2
        };
    }

    static int redOp(ReductionOpType op) {
        return switch (op) {
            case SUM -> 0; // ncclSum
            case MAX -> 2; // ncclMax
            case MIN -> 3; // ncclMin
            case PROD -> 1; // ncclProd
        };
    }

    void check(String what, int rc) {
        if (rc == 0) return;
        String msg = errorString(rc);
        throw new ExecutionException(what + " failed: " + msg + " (ncclResult " + rc + ")");
    }

    private String errorString(int rc) {
        try {
            MemorySegment s = (MemorySegment) getErrorString.invokeExact(rc);
            return s.reinterpret(512).getString(0);
        } catch (Throwable t) {
            return "NCCL error";
        }
    }

    int version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("ncclGetVersion", NativeLib.call("v", () -> (int) getVersion.invokeExact(v)));
            return v.get(JAVA_INT, 0);
        }
    }

    /** One communicator per listed device, comm i of rank i, created by the calling thread (ncclCommInitAll). */
    long[] initAll(int[] devices) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comms = a.allocate(ADDRESS, devices.length);
            MemorySegment list = a.allocateFrom(JAVA_INT, devices);
            check("ncclCommInitAll", NativeLib.call("init", () -> (int) commInitAll.invokeExact(comms, devices.length, list)));
            long[] out = new long[devices.length];
            for (int i = 0; i < out.length; i++) out[i] = comms.getAtIndex(JAVA_LONG, i);
            return out;
        }
    }

    /** A new ncclUniqueId (rank 0 of a team creates it and hands it to the others). */
    byte[] uniqueId() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(UNIQUE_ID);
            check("ncclGetUniqueId", NativeLib.call("id", () -> (int) getUniqueId.invokeExact(id)));
            return id.toArray(JAVA_BYTE);
        }
    }

    /**
     * This process's communicator of rank {@code rank} among {@code nranks}, on the device whose context is
     * current; blocks until every rank of the team has called it with the same id.
     */
    long initRank(int nranks, byte[] uniqueId, int rank) {
        if (uniqueId.length != UNIQUE_ID_BYTES) throw new IllegalArgumentException("an ncclUniqueId has 128 bytes");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comm = a.allocate(ADDRESS);
            MemorySegment id = a.allocate(UNIQUE_ID);
            id.copyFrom(MemorySegment.ofArray(uniqueId));
            check("ncclCommInitRank (rank " + rank + " of " + nranks + ")",
                    NativeLib.call("init", () -> (int) commInitRank.invokeExact(comm, nranks, id, rank)));
            return comm.get(JAVA_LONG, 0);
        }
    }

    void abort(long comm) { NativeLib.call("ncclCommAbort", () -> (int) commAbort.invokeExact(comm)); }

    /** The communicator's asynchronous error (0 when none, 7 while an operation is in progress). */
    int asyncError(long comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(JAVA_INT);
            int rc = NativeLib.call("async", () -> (int) commGetAsyncError.invokeExact(comm, r));
            return rc != 0 ? rc : r.get(JAVA_INT, 0);
        }
    }

    void groupStart() { check("ncclGroupStart", NativeLib.call("g", () -> (int) groupStart.invokeExact())); }

    void groupEnd() { check("ncclGroupEnd", NativeLib.call("g", () -> (int) groupEnd.invokeExact())); }

    void allGather(long in, long out, long count, int type, long comm, long stream) {
        check("ncclAllGather", NativeLib.call("ag", () -> (int) allGather.invokeExact(in, out, count, type, comm, stream)));
    }

    void allReduce(long in, long out, long count, int type, int op, long comm, long stream) {
        check("ncclAllReduce", NativeLib.call("ar", () -> (int) allReduce.invokeExact(in, out, count, type, op, comm, stream)));
    }

    void reduceScatter(long in, long out, long recvCount, int type, int op, long comm, long stream) {
        check("ncclReduceScatter", NativeLib.call("rs",
                () -> (int) reduceScatter.invokeExact(in, out, recvCount, type, op, comm, stream)));
    }

    void broadcast(long in, long out, long count, int type, int root, long comm, long stream) {
        check("ncclBroadcast", NativeLib.call("bc", () -> (int) broadcast.invokeExact(in, out, count, type, root, comm, stream)));
    }

    void reduce(long in, long out, long count, int type, int op, int root, long comm, long stream) {
        check("ncclReduce", NativeLib.call("red", () -> (int) reduce.invokeExact(in, out, count, type, op, root, comm, stream)));
    }

    void send(long buf, long count, int type, int peer, long comm, long stream) {
        check("ncclSend", NativeLib.call("send", () -> (int) send.invokeExact(buf, count, type, peer, comm, stream)));
    }

    void recv(long buf, long count, int type, int peer, long comm, long stream) {
        check("ncclRecv", NativeLib.call("recv", () -> (int) recv.invokeExact(buf, count, type, peer, comm, stream)));
    }
}
