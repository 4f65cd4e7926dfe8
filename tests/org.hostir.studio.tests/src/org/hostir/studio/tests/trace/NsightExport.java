package org.hostir.studio.tests.trace;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import org.sqlite.SQLiteConfig;

/**
 * Writes small Nsight Systems SQLite exports for tests. No machine of the project has {@code nsys}, so these are
 * not made by it: the tables and columns are those of NVIDIA's "SQLite Export Schema Reference"
 * (nsys-exporter/exported_data.html; the column lists of a recent Nsight Systems, those the reader needs and a
 * few it ignores), written through SQLite JDBC. {@code globalTid} and {@code globalPid} are serialized as Nsight
 * serializes them: the process id shifted left by 24 bits, plus the thread id.
 */
final class NsightExport implements AutoCloseable {
    private static final String[] SCHEMA = {
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)",
        "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,"
            + " isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER, smCount INTEGER, uuid TEXT)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
            + " contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
            + " demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER,"
            + " registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,"
            + " blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,"
            + " contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,"
            + " bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,"
            + " globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,"
            + " callchainId INTEGER)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,"
            + " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,"
            + " globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL)",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT (deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,"
            + " streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, eventId INTEGER NOT NULL)",
        "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
            + " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
            + " domainId INTEGER)",
    };
    /** ENUM_NSYS_EVENT_TYPE's NvtxPushPopRange and NvtxMark. */
    static final int PUSH_POP = 59, MARK = 34;
    /** CUPTI's CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT. */
    static final int STREAM_WAIT_EVENT = 2;

    private final Connection db;
    private final Map<String, Integer> strings = new HashMap<>();

    NsightExport(Path file) throws SQLException {
        db = new SQLiteConfig().createConnection("jdbc:sqlite:" + file.toAbsolutePath());
        db.setAutoCommit(false);
        try (Statement s = db.createStatement()) {
            for (String table : SCHEMA) s.execute(table);
        }
    }

    static long pid(int process) { return (long) process << 24; }

    static long tid(int process, int thread) { return pid(process) + thread; }

    int string(String value) throws SQLException {
        Integer id = strings.get(value);
        if (id != null) return id;
        int fresh = strings.size() + 1;
        insert("StringIds", fresh, value);
        strings.put(value, fresh);
        return fresh;
    }

    void session(long utcEpochNs) throws SQLException {
        insert("TARGET_INFO_SESSION_START_TIME", utcEpochNs, "", "");
    }

    void kernel(int process, int device, int stream, long start, long end, int correlation, String name) throws SQLException {
        int id = string(name);
        insert("CUPTI_ACTIVITY_KIND_KERNEL", start, end, device, 1, stream, correlation, pid(process), id, id, null, 0,
                32, 8, 1, 1, 128, 1, 1);
    }

    void memcpy(int process, int device, int stream, long start, long end, int correlation, long bytes, int copyKind)
            throws SQLException {
        insert("CUPTI_ACTIVITY_KIND_MEMCPY", start, end, device, 1, stream, correlation, pid(process), bytes, copyKind, 1, 1);
    }

    void runtime(int process, int thread, long start, long end, int correlation, String name) throws SQLException {
        insert("CUPTI_ACTIVITY_KIND_RUNTIME", start, end, 1, tid(process, thread), correlation, string(name), 0, null);
    }

    void nvtx(int process, int thread, long start, Long end, int eventType, String text) throws SQLException {
        insert("NVTX_EVENTS", start, end, eventType, 0, null, null, null, tid(process, thread), null, string(text), 0);
    }

    void streamWait(int process, int device, int stream, long at, int correlation, long eventId) throws SQLException {
        insert("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", at, at, device, 1, stream, correlation, pid(process),
                STREAM_WAIT_EVENT, eventId);
    }

    void eventRecord(int process, int device, int stream, int correlation, long eventId) throws SQLException {
        insert("CUPTI_ACTIVITY_KIND_CUDA_EVENT", device, 1, stream, correlation, pid(process), eventId);
    }

    private void insert(String table, Object... values) throws SQLException {
        String marks = "?" + ", ?".repeat(values.length - 1);
        try (PreparedStatement p = db.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
            for (int i = 0; i < values.length; i++) p.setObject(i + 1, values[i]);
            p.executeUpdate();
        }
    }

    @Override
    public void close() throws SQLException {
        db.commit();
        db.close();
    }
}
