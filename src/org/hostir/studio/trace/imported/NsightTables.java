package org.hostir.studio.trace.imported;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.sqlite.SQLiteConfig;

/**
 * One Nsight Systems SQLite export ({@code nsys export --type sqlite}) opened read-only through SQLite JDBC, and
 * its tables read as rows of named values. Nsight creates tables lazily and its columns change between releases
 * (NVIDIA's "SQLite Export Schema Reference": "not every table described below might be present"), so a missing
 * table reads as no rows and a missing column as null.
 */
final class NsightTables implements AutoCloseable {
    /** The tables whose presence marks a file as an Nsight Systems export. */
    static final List<String> MARKERS = List.of("StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
            "NVTX_EVENTS", "TARGET_INFO_GPU");

    private final Connection connection;
    private final Set<String> tables = new HashSet<>();
    private final Map<Long, String> strings = new HashMap<>();

    private NsightTables(Connection connection) {
        this.connection = connection;
    }

    /** Opens an export; a file that is no SQLite database, or one without Nsight's tables, fails in one line. */
    static NsightTables open(Path file) throws IOException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        NsightTables t;
        try {
            t = new NsightTables(config.createConnection("jdbc:sqlite:" + file.toAbsolutePath()));
        } catch (SQLException e) {
            throw new IOException("cannot open as SQLite: " + firstLine(e), e);
        }
        try {
            t.readTables();
            if (!t.tables.contains("StringIds") || MARKERS.stream().skip(1).noneMatch(t.tables::contains)) {
                throw new IOException("an SQLite database without Nsight Systems' tables (StringIds and one of "
                        + String.join(", ", MARKERS.subList(1, MARKERS.size())) + "): not an `nsys export --type sqlite` file");
            }
            for (Map<String, Object> row : t.rows("StringIds", "id", "value")) {
                if (row.get("id") instanceof Number id && row.get("value") != null) {
                    t.strings.put(id.longValue(), String.valueOf(row.get("value")));
                }
            }
            return t;
        } catch (IOException e) {
            t.close();
            throw e;
        }
    }

    private void readTables() throws IOException {
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) {
            while (r.next()) tables.add(r.getString(1));
        } catch (SQLException e) {
            throw new IOException("not an SQLite database (" + firstLine(e) + ")", e);
        }
    }

    boolean has(String table) { return tables.contains(table); }

    /** The text of a {@code StringIds} id, or null. */
    String string(Object id) {
        return id instanceof Number n ? strings.get(n.longValue()) : null;
    }

    /** Every row of a table with the given columns (null where the table lacks one); no rows if it is missing. */
    List<Map<String, Object>> rows(String table, String... columns) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (!has(table)) return rows;
        try (Statement s = connection.createStatement()) {
            Set<String> present = columns(s, table);
            List<String> select = new ArrayList<>();
            for (String c : columns) select.add(present.contains(c.toLowerCase(Locale.ROOT)) ? "\"" + c + "\"" : "NULL");
            try (ResultSet r = s.executeQuery("SELECT " + String.join(", ", select) + " FROM \"" + table + "\"")) {
                while (r.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int i = 0; i < columns.length; i++) row.put(columns[i], r.getObject(i + 1));
                    rows.add(row);
                }
            }
        } catch (SQLException e) {
            throw new IOException(table + ": " + firstLine(e), e);
        }
        return rows;
    }

    private static Set<String> columns(Statement s, String table) throws SQLException {
        Set<String> names = new HashSet<>();
        try (ResultSet r = s.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
            while (r.next()) names.add(r.getString("name").toLowerCase(Locale.ROOT));
        }
        return names;
    }

    static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // read-only: nothing of the file is lost when closing fails
        }
    }
}
