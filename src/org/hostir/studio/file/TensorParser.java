package org.hostir.studio.file;

import static org.hostir.studio.file.JsonFields.field;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;

/** Parses the {@code tensors} entries of a fusion file: name, dtype, memory, axes and mesh. */
final class TensorParser {
    static final Set<String> FIELDS = Set.of("name", "dtype", "memory", "axes", "mesh", "loop", "allocation");
    static final Set<String> AXIS_FIELDS = Set.of("extent", "iter", "parallel");
    /** Every dtype of the IR; fp8 only where the op definitions' dtype rules ({@code DtypeChecks}) allow it. */
    static final List<DataType> TENSOR_DTYPES = List.of(DataType.values());

    private final JsonFields f;
    private final LoopParser loops;
    /** Whether the file is {@code hostir-fusion/2}, where tensors may have {@code loop} and {@code allocation}. */
    private boolean version2;

    TensorParser(JsonFields fields) {
        this.f = fields;
        this.loops = new LoopParser(fields, this);
    }

    void setVersion2(boolean value) { version2 = value; }

    TensorSpec tensor(JsonNode n, String path) {
        JsonNode.JObject o = f.object(n, path);
        if (o == null) return null;
        f.allowOnly(o, path, FIELDS, "a tensor");
        JsonNode nameNode = f.require(o, path, "name");
        String name = nameNode == null ? null : f.identifier(nameNode, field(path, "name"));
        JsonNode dtypeNode = f.require(o, path, "dtype");
        DataType dtype = dtypeNode == null ? null : dtype(dtypeNode, field(path, "dtype"));
        MemoryType memory = null;
        boolean memoryOk = true;
        if (o.get("memory") != null) {
            memory = memory(o.get("memory"), field(path, "memory"));
            memoryOk = memory != null;
        }
        JsonNode axesNode = f.require(o, path, "axes");
        List<AxisSpec> axes = null;
        if (axesNode != null) {
            JsonNode.JArray a = f.array(axesNode, field(path, "axes"), Limits.MAX_AXES);
            if (a != null) {
                List<AxisSpec> parsed = f.items(a, field(path, "axes"), this::axis);
                if (parsed.size() == a.items().size()) axes = parsed;
            }
        }
        MeshSpec mesh = MeshSpec.ABSENT;
        if (o.get("mesh") != null) mesh = mesh(o.get("mesh"), field(path, "mesh"));
        if (name == null || dtype == null || !memoryOk || axes == null || mesh == null) return null;
        List<LoopStep> loop = o.get("loop") == null || !version(o, path, "loop") ? List.of()
                : loops.steps(o.get("loop"), field(path, "loop"), axes.size());
        Boolean allocationIsLoop = o.get("allocation") == null || !version(o, path, "allocation") ? Boolean.FALSE
                : allocation(o.get("allocation"), field(path, "allocation"));
        if (loop == null || allocationIsLoop == null || !parallelOnLoopOnly(o, path, axes, loop)) return null;
        return new TensorSpec(name, dtype, memory, axes, mesh, loop, allocationIsLoop);
    }

    /** Whether the file's version has {@code key}; reports it in a version 1 file. */
    private boolean version(JsonNode.JObject o, String path, String key) {
        if (version2) return true;
        f.report(o.get(key), field(path, key), Rule.LOOP_VERSION, Texts.quote(key) + " needs \"format\": \""
                + FusionDocument.FORMAT_2 + "\" (this file is " + FusionDocument.FORMAT + ")");
        return false;
    }

    /** {@code "loop"}: nvFuser's {@code setAllocationDomain(getLoopDomain(), true)}; {@code "logical"}: the default. */
    private Boolean allocation(JsonNode n, String path) {
        String s = f.string(n, path);
        if (s == null) return null;
        if (s.equals("loop") || s.equals("logical")) return s.equals("loop");
        f.report(n, path, Rule.SCHEMA_ENUM, "unknown allocation " + Texts.quote(s) + " (expected loop, logical)");
        return null;
    }

    /** With loop steps, parallel types belong to the loop axes: one place says how the tensor is sharded. */
    private boolean parallelOnLoopOnly(JsonNode.JObject o, String path, List<AxisSpec> axes, List<LoopStep> loop) {
        if (loop.isEmpty()) return true;
        for (int i = 0; i < axes.size(); i++) {
            if (axes.get(i).parallel() != ParallelType.SERIAL) {
                String at = JsonFields.index(field(path, "axes"), i);
                f.report(((JsonNode.JArray) o.get("axes")).items().get(i), at, Rule.LOOP_LOGICAL_PARALLEL,
                        "logical axis " + i + " is " + axes.get(i).parallel().fileName() + " but the tensor has loop"
                                + " steps: parallelize its loop axis in \"loop\" instead");
                return false;
            }
        }
        return true;
    }

    /** A bare extent ({@code "M"}, {@code 8}) or {@code {"extent": .., "iter": .., "parallel": ..}}. */
    AxisSpec axis(JsonNode n, String path) {
        if (n instanceof JsonNode.JString || n instanceof JsonNode.JNumber) {
            ExtentSpec e = extent(n, path);
            return e == null ? null : AxisSpec.of(e);
        }
        JsonNode.JObject o = f.object(n, path);
        if (o == null) return null;
        f.allowOnly(o, path, AXIS_FIELDS, "an axis");
        IterType iter = IterType.ITERATION;
        if (o.get("iter") != null) {
            iter = iterType(o.get("iter"), field(path, "iter"));
            if (iter == null) return null;
        }
        ParallelType parallel = ParallelType.SERIAL;
        if (o.get("parallel") != null) {
            parallel = parallelType(o.get("parallel"), field(path, "parallel"));
            if (parallel == null) return null;
        }
        JsonNode extentNode = o.get("extent");
        ExtentSpec extent;
        if (extentNode == null && iter == IterType.BROADCAST) {
            extent = ExtentSpec.size(1);
        } else {
            extentNode = f.require(o, path, "extent");
            if (extentNode == null) return null;
            extent = extent(extentNode, field(path, "extent"));
            if (extent == null) return null;
        }
        if (iter == IterType.BROADCAST && !(extent instanceof ExtentSpec.Size(long size) && size == 1)) {
            f.report(extentNode, field(path, "extent"), Rule.SCHEMA_RANGE,
                    "a broadcast axis has extent 1, got " + extent);
            return null;
        }
        return new AxisSpec(extent, iter, parallel);
    }

    ExtentSpec extent(JsonNode n, String path) {
        if (n instanceof JsonNode.JString s) {
            String name = f.identifier(s, path);
            return name == null ? null : ExtentSpec.symbol(name);
        }
        if (n instanceof JsonNode.JNumber) {
            Long v = f.integer(n, path, 1, Limits.MAX_EXTENT, "an extent");
            return v == null ? null : ExtentSpec.size(v);
        }
        f.report(n, path, Rule.SCHEMA_TYPE, "expected an extent (a symbol name or a positive integer), got "
                + n.kind());
        return null;
    }

    MeshSpec mesh(JsonNode n, String path) {
        if (n instanceof JsonNode.JString s) {
            if (s.value().equals("all")) return MeshSpec.ALL;
            f.report(n, path, Rule.SCHEMA_ENUM, "unknown mesh " + Texts.quote(s.value())
                    + " (expected \"all\" or a list of device ids)");
            return null;
        }
        if (!(n instanceof JsonNode.JArray)) {
            f.report(n, path, Rule.SCHEMA_TYPE, "expected \"all\" or a list of device ids, got " + n.kind());
            return null;
        }
        JsonNode.JArray a = f.array(n, path, Limits.MAX_DEVICES);
        if (a == null) return null;
        if (!a.items().isEmpty() && a.items().get(0) instanceof JsonNode.JArray) return grid(a, path);
        List<Long> ids = f.items(a, path, (item, p) -> f.integer(item, p, 0, Integer.MAX_VALUE, "a device id"));
        if (ids.size() != a.items().size()) return null;
        return new MeshSpec.Devices(ids.stream().map(Long::intValue).toList());
    }

    /** A 2-D mesh as rows of device ids ({@code [[0, 1], [2, 3]]}), hostir-fusion/2: DIDy rows, DIDx columns. */
    private MeshSpec grid(JsonNode.JArray rows, String path) {
        if (!version2) {
            f.report(rows, path, Rule.LOOP_VERSION, "a 2-D mesh (a list of rows) needs \"format\": \""
                    + FusionDocument.FORMAT_2 + "\"");
            return null;
        }
        List<Integer> ids = new ArrayList<>();
        int width = -1;
        for (int r = 0; r < rows.items().size(); r++) {
            String rowPath = JsonFields.index(path, r);
            JsonNode.JArray row = f.array(rows.items().get(r), rowPath, Limits.MAX_DEVICES);
            if (row == null) return null;
            List<Long> rowIds = f.items(row, rowPath, (item, p) -> f.integer(item, p, 0, Integer.MAX_VALUE,
                    "a device id"));
            if (rowIds.size() != row.items().size()) return null;
            if (rowIds.isEmpty()) {
                f.report(row, rowPath, Rule.MESH_EMPTY, "row " + r + " of the 2-D mesh is empty (each row of a 2-D"
                        + " mesh holds at least one device)");
                return null;
            }
            if (width >= 0 && rowIds.size() != width) {
                f.report(row, rowPath, Rule.SCHEMA_RANGE, "row " + r + " of the 2-D mesh has " + devices(rowIds.size())
                        + " but row 0 has " + devices(width) + " (the rows of a 2-D mesh have one length)");
                return null;
            }
            width = rowIds.size();
            rowIds.forEach(id -> ids.add(id.intValue()));
        }
        return new MeshSpec.Devices(ids, List.of(rows.items().size(), width));
    }

    private static String devices(int n) { return n + (n == 1 ? " device" : " devices"); }

    DataType dtype(JsonNode n, String path) {
        String s = f.string(n, path);
        if (s == null) return null;
        for (DataType t : TENSOR_DTYPES) {
            if (t.fileName().equals(s)) return t;
        }
        f.report(n, path, Rule.SCHEMA_ENUM, "unknown dtype " + Texts.quote(s) + " (expected "
                + TENSOR_DTYPES.stream().map(DataType::fileName).collect(Collectors.joining(", ")) + ")");
        return null;
    }

    MemoryType memory(JsonNode n, String path) {
        String s = f.string(n, path);
        if (s == null) return null;
        for (MemoryType t : MemoryType.values()) {
            if (t.dumpName().equals(s)) return t;
        }
        f.report(n, path, Rule.SCHEMA_ENUM, "unknown memory type " + Texts.quote(s) + " (expected "
                + Arrays.stream(MemoryType.values()).map(MemoryType::dumpName).collect(Collectors.joining(", "))
                + ")");
        return null;
    }

    IterType iterType(JsonNode n, String path) {
        String s = f.string(n, path);
        if (s == null) return null;
        for (IterType t : IterType.values()) {
            if (t.fileName().equals(s)) return t;
        }
        f.report(n, path, Rule.SCHEMA_ENUM, "unknown iter type " + Texts.quote(s) + " (expected "
                + Arrays.stream(IterType.values()).map(IterType::fileName).collect(Collectors.joining(", ")) + ")");
        return null;
    }

    ParallelType parallelType(JsonNode n, String path) {
        String s = f.string(n, path);
        if (s == null) return null;
        for (ParallelType t : ParallelType.values()) {
            if (t.fileName().equals(s)) return t;
        }
        f.report(n, path, Rule.SCHEMA_ENUM, "unknown parallel type " + Texts.quote(s) + " (expected "
                + Arrays.stream(ParallelType.values()).map(ParallelType::fileName).collect(Collectors.joining(", "))
                + ")");
        return null;
    }
}
