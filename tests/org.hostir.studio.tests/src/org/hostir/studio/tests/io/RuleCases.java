package org.hostir.studio.tests.io;

import static org.hostir.studio.tests.io.Fixtures.base;
import static org.hostir.studio.tests.io.Fixtures.j;
import static org.hostir.studio.tests.io.Fixtures.single;
import static org.hostir.studio.tests.io.Fixtures.tensor;
import static org.hostir.studio.tests.io.Fixtures.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diag.Rule;

import com.google.gson.JsonObject;

/**
 * One fusion per rule that breaks exactly that rule (a valid fusion with one fault), the JSON path the
 * diagnostic must name, and the device count to load it with.
 */
final class RuleCases {
    private RuleCases() {}

    record Case(Rule rule, String what, String path, int devices, byte[] bytes) {
        @Override
        public String toString() { return rule.id() + ": " + what; }

        String text() { return new String(bytes, StandardCharsets.UTF_8); }
    }

    private static Case of(Rule rule, String what, String path, JsonObject doc) {
        return of(rule, what, path, 2, text(doc));
    }

    private static Case of(Rule rule, String what, String path, int devices, String text) {
        return new Case(rule, what, path, devices, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Tensors p [M, N], q, r for the single-device cases. */
    private static final String PQ = "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']},"
            + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'r', 'dtype': 'float', 'axes': ['M', 'N']}]";

    static List<Case> all() {
        List<Case> c = new ArrayList<>();
        // reading
        String good = text(base());
        byte[] bad = good.replace("\"base\"", "\"b\u00e9se\"").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + 1 < bad.length; i++) {
            if ((bad[i] & 0xff) == 0xc3) bad[i + 1] = (byte) 0x28; // a lead byte without its continuation
        }
        c.add(new Case(Rule.JSON_ENCODING, "a name with a broken UTF-8 sequence", "$", 2, bad));
        c.add(of(Rule.JSON_SYNTAX, "the file cut in the middle of the ops", "$.ops", 2,
                good.substring(0, good.indexOf("\"matmul\"") + 3)));
        c.add(of(Rule.JSON_LIMIT, "a layout nested 100 deep", "$.layout", 2,
                good.replaceFirst("\\{", "{\"layout\": {\"x\": " + "[".repeat(100) + "]".repeat(100) + "},")));
        c.add(of(Rule.JSON_DUPLICATE_KEY, "a tensor with two names", "$.tensors[1].name", 2,
                good.replaceFirst("\"name\": \"b\",", "\"name\": \"b\", \"name\": \"bb\",")));
        c.add(of(Rule.JSON_STRING, "a tensor name holding a raw NUL", "$.tensors[1].name", 2,
                good.replaceFirst("\"name\": \"b\",", "\"name\": \"b\u0000\",")));
        // structure
        c.add(of(Rule.SCHEMA_FORMAT, "format hostir-fusion/3", "$.format",
                base(d -> d.addProperty("format", "hostir-fusion/3"))));
        c.add(of(Rule.SCHEMA_REQUIRED, "no name", "$", base(d -> d.remove("name"))));
        c.add(of(Rule.SCHEMA_UNKNOWN_FIELD, "a tensor with a colour", "$.tensors[1].colour",
                base(d -> tensor(d, "b").addProperty("colour", "red"))));
        c.add(of(Rule.SCHEMA_TYPE, "inputs as a string", "$.inputs", base(d -> d.addProperty("inputs", "a"))));
        c.add(of(Rule.SCHEMA_ENUM, "parallel type DIDz", "$.tensors[0].axes[0].parallel",
                base(d -> tensor(d, "a").getAsJsonArray("axes").get(0).getAsJsonObject().addProperty("parallel", "DIDz"))));
        c.add(of(Rule.SCHEMA_RANGE, "extent 0", "$.tensors[1].axes[1]",
                base(d -> tensor(d, "b").getAsJsonArray("axes").set(1, j("0")))));
        c.add(of(Rule.SCHEMA_NAME, "a tensor named 9a", "$.tensors[1].name",
                base(d -> tensor(d, "b").addProperty("name", "9a"))));
        c.add(of(Rule.SCHEMA_ARITY, "matmul with one input", "$.ops[0].inputs",
                base(d -> d.getAsJsonArray("ops").get(0).getAsJsonObject().add("inputs", j("['a']")))));
        c.add(of(Rule.SCHEMA_ATTRIBUTE, "matmul with axes", "$.ops[0].axes",
                base(d -> d.getAsJsonArray("ops").get(0).getAsJsonObject().add("axes", j("[0]")))));
        c.add(of(Rule.SYMBOL_RESERVED, "a default for D", "$.symbols.D",
                base(d -> d.getAsJsonObject("symbols").addProperty("D", 2))));
        // names
        c.add(of(Rule.NAME_DUPLICATE, "a second tensor named b", "$.tensors[3].name",
                base(d -> d.getAsJsonArray("tensors").add(j("{'name': 'b', 'dtype': 'half', 'axes': ['M']}")))));
        c.add(of(Rule.NAME_UNDEFINED, "an op reading zz", "$.ops[0].inputs[1]",
                base(d -> d.getAsJsonArray("ops").get(0).getAsJsonObject().add("inputs", j("['a', 'zz']")))));
        // graph
        c.add(of(Rule.GRAPH_REDEFINED, "two ops computing c", "$.ops[1]",
                base(d -> d.getAsJsonArray("ops").add(j("{'op': 'matmul', 'inputs': ['a', 'b'], 'output': 'c'}")))));
        c.add(of(Rule.GRAPH_INPUT_DEFINED, "c both an input and computed", "$.ops[0]",
                base(d -> d.add("inputs", j("['a', 'b', 'c']")))));
        c.add(of(Rule.GRAPH_UNDEFINED, "b neither an input nor computed", "$.ops[0]",
                base(d -> d.add("inputs", j("['a']")))));
        c.add(of(Rule.GRAPH_CYCLE, "q = add(p, r), r = set(q)", "$.ops[0]", single(PQ,
                "[{'op': 'add', 'inputs': ['p', 'r'], 'output': 'q'}, {'op': 'set', 'inputs': ['q'], 'output': 'r'}]",
                "['p']", "['r']")));
        c.add(of(Rule.GRAPH_ORDER, "r = set(q) listed before q = set(p)", "$.ops[0]", single(PQ,
                "[{'op': 'set', 'inputs': ['q'], 'output': 'r'}, {'op': 'set', 'inputs': ['p'], 'output': 'q'}]",
                "['p']", "['r']")));
        // shapes and dtypes
        c.add(of(Rule.SHAPE_SET, "set [M, N] -> [M, K]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['M', 'K']}]",
                "[{'op': 'set', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_PERMUTE, "permute [0, 0]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['N', 'M']}]",
                "[{'op': 'set', 'inputs': ['p'], 'output': 'q', 'permute': [0, 0]}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_BINARY, "add [M, N] + [M, K]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['M', 'K']},"
                        + " {'name': 'r', 'dtype': 'float', 'axes': ['M', 'N']}]",
                "[{'op': 'add', 'inputs': ['p', 'q'], 'output': 'r'}]", "['p', 'q']", "['r']")));
        c.add(of(Rule.SHAPE_REDUCTION, "sum over N keeping N an iteration axis", "$.ops[0]", single(PQ,
                "[{'op': 'sum', 'inputs': ['p'], 'output': 'q', 'axes': [1]}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_BROADCAST, "one flag for two output axes", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['N']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': [{'iter': 'broadcast'}, 'N']}]",
                "[{'op': 'broadcast', 'inputs': ['p'], 'output': 'q', 'flags': [true]}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_MATMUL, "b is [N, N]: K does not match", "$.ops[0]",
                base(d -> tensor(d, "b").add("axes", j("['N', 'N']")))));
        c.add(of(Rule.SHAPE_LINEAR, "a bias of extent M", "$.ops[0]", single(
                "[{'name': 'x', 'dtype': 'float', 'axes': ['M', 'K']}, {'name': 'w', 'dtype': 'float', 'axes': ['N', 'K']},"
                        + " {'name': 'bias', 'dtype': 'float', 'axes': ['M']},"
                        + " {'name': 'y', 'dtype': 'float', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}]",
                "[{'op': 'linear', 'inputs': ['x', 'w', 'bias'], 'output': 'y'}]", "['x', 'w', 'bias']", "['y']")));
        c.add(of(Rule.DTYPE_MISMATCH, "b in half", "$.ops[0]", base(d -> tensor(d, "b").addProperty("dtype", "half"))));
        c.add(of(Rule.SHAPE_UNARY, "exp of [M, N] into [N, M]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['N', 'M']}]",
                "[{'op': 'exp', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_WHERE, "where with a condition [M, K] for x and y [M, N]", "$.ops[0]", single(
                "[{'name': 'c', 'dtype': 'bool', 'axes': ['M', 'K']}, {'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'N']}]",
                "[{'op': 'where', 'inputs': ['c', 'p', 'p'], 'output': 'q'}]", "['c', 'p']", "['q']")));
        c.add(of(Rule.SHAPE_SQUEEZE, "squeeze of an axis of extent N", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['M']}]",
                "[{'op': 'squeeze', 'inputs': ['p'], 'output': 'q', 'flags': [false, true]}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_INDEX_SELECT, "index_select with a 2-D index", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'i', 'dtype': 'int64', 'axes': ['K', 'K']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['K', 'N']}]",
                "[{'op': 'index_select', 'inputs': ['p', 'i'], 'output': 'q', 'axes': [0]}]", "['p', 'i']", "['q']")));
        c.add(of(Rule.SHAPE_TAKE_ALONG_AXIS, "take_along_axis with a 1-D index into a 2-D input", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'i', 'dtype': 'int64', 'axes': ['K']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'K']}]",
                "[{'op': 'take_along_axis', 'inputs': ['p', 'i'], 'output': 'q', 'axes': [1]}]", "['p', 'i']",
                "['q']")));
        c.add(of(Rule.SHAPE_TOPK, "topk of 5 among 4", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 4]}, {'name': 'q', 'dtype': 'float', 'axes': ['M', 5]}]",
                "[{'op': 'topk', 'inputs': ['p'], 'output': 'q', 'axes': [1], 'flags': [true, true]}]", "['p']",
                "['q']")));
        c.add(of(Rule.SHAPE_SCATTER, "scatter with a 1-D index into a 2-D self", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'i', 'dtype': 'int64', 'axes': ['K']},"
                        + " {'name': 's', 'dtype': 'float', 'axes': ['K', 'N']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'N']}]",
                "[{'op': 'scatter', 'inputs': ['p', 'i', 's'], 'output': 'q', 'axes': [0]}]", "['p', 'i', 's']",
                "['q']")));
        c.add(of(Rule.SHAPE_GROUPED_MM, "grouped_mm of two 3-D operands", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['G', 'M', 'K']}, {'name': 'w', 'dtype': 'float', 'axes': ['G', 'K', 'N']},"
                        + " {'name': 'o', 'dtype': 'int32', 'axes': ['G']},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}]",
                "[{'op': 'grouped_mm', 'inputs': ['p', 'w', 'o'], 'output': 'q'}]", "['p', 'w', 'o']", "['q']")));
        c.add(of(Rule.SHARDING_GROUPED_MM, "grouped_mm of experts sharded on DIDx", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'K'], 'mesh': 'all'},"
                        + " {'name': 'w', 'dtype': 'float', 'axes': [{'extent': 'G', 'parallel': 'DIDx'}, 'K', 'N'], 'mesh': 'all'},"
                        + " {'name': 'o', 'dtype': 'int32', 'axes': ['G'], 'mesh': 'all'},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}], 'mesh': 'all'}]",
                "[{'op': 'grouped_mm', 'inputs': ['p', 'w', 'o'], 'output': 'q'}]", "['p', 'w', 'o']", "['q']")));
        c.add(of(Rule.SHAPE_EXPAND, "expand of an axis of extent N to K", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 'N']}, {'name': 'q', 'dtype': 'float', 'axes': ['M', 'K']}]",
                "[{'op': 'expand', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.SHAPE_RESHAPE, "reshape of [M, 6] into [M, 4]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': ['M', 6]}, {'name': 'q', 'dtype': 'float', 'axes': ['M', 4]}]",
                "[{'op': 'reshape', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.RESHAPE_SHARDED_AXIS, "reshape of [DIDx D, 6] into [6, DIDx D]", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float', 'axes': [{'extent': 'D', 'parallel': 'DIDx'}, 6], 'mesh': 'all'},"
                        + " {'name': 'q', 'dtype': 'float', 'axes': [6, {'extent': 'D', 'parallel': 'DIDx'}], 'mesh': 'all'}]",
                "[{'op': 'reshape', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.DTYPE_CAST, "a cast from float8_e4m3fn to int32", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float8_e4m3fn', 'axes': ['M']}, {'name': 'q', 'dtype': 'int32', 'axes': ['M']}]",
                "[{'op': 'cast', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.DTYPE_BOOL, "neg of a bool tensor", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'bool', 'axes': ['M']}, {'name': 'q', 'dtype': 'bool', 'axes': ['M']}]",
                "[{'op': 'neg', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.DTYPE_FP8, "exp of a float8_e5m2 tensor", "$.ops[0]", single(
                "[{'name': 'p', 'dtype': 'float8_e5m2', 'axes': ['M']}, {'name': 'q', 'dtype': 'float8_e5m2', 'axes': ['M']}]",
                "[{'op': 'exp', 'inputs': ['p'], 'output': 'q'}]", "['p']", "['q']")));
        c.add(of(Rule.DTYPE_MATMUL, "a matmul of two float8_e5m2 operands", "$.ops[0]", base(d -> {
            tensor(d, "a").addProperty("dtype", "float8_e5m2");
            tensor(d, "b").addProperty("dtype", "float8_e5m2");
        })));
        // meshes and parallel types
        c.add(of(Rule.MESH_EMPTY, "b on an empty mesh", "$.tensors[1].mesh",
                base(d -> tensor(d, "b").add("mesh", j("[]")))));
        c.add(of(Rule.MESH_DUPLICATE, "b on mesh [0, 0]", "$.tensors[1].mesh",
                base(d -> tensor(d, "b").add("mesh", j("[0, 0]")))));
        c.add(of(Rule.MESH_DEVICE_RANGE, "b on mesh [0, 5] with 2 devices", "$.tensors[1].mesh",
                base(d -> tensor(d, "b").add("mesh", j("[0, 5]")))));
        // a tensor an op reaches may leave its mesh unstated (sharding propagation infers it, issue 34): these two
        // rules are about the tensors it cannot reach
        c.add(of(Rule.MESH_MISSING, "a DIDx axis in a fusion where no tensor has a mesh", "$.tensors[0]",
                base(d -> List.of("a", "b", "c").forEach(t -> tensor(d, t).remove("mesh")))));
        c.add(of(Rule.MESH_MIXED, "an unused tensor without a mesh among tensors with one", "$.tensors[3]",
                base(d -> d.getAsJsonArray("tensors").add(j("{'name': 'u', 'dtype': 'float', 'axes': ['M']}")))));
        c.add(of(Rule.PROPAGATION_NO_MESH, "an input without a mesh that no op connects to a tensor with one",
                "$.tensors[3]", base(d -> {
                    d.getAsJsonArray("tensors").add(j("{'name': 'u', 'dtype': 'float', 'axes': ['M']}"));
                    d.getAsJsonArray("inputs").add("u");
                })));
        c.add(of(Rule.MESH_DID_EXTENT, "DIDx axis of extent D = 2 on a one-device mesh", "$.tensors[0].axes[0]",
                base(d -> tensor(d, "a").add("mesh", j("[0]")))));
        c.add(of(Rule.MESH_STREAM_ALLGATHER, "a DIDx-to-Stream set onto the reversed mesh", "$.ops[1]", base(d -> {
            d.getAsJsonArray("tensors").add(j("{'name': 'e', 'dtype': 'float', 'mesh': [1, 0],"
                    + " 'axes': [{'extent': 'D', 'parallel': 'Stream'}, 'M', 'K']}"));
            d.getAsJsonArray("ops").add(j("{'op': 'set', 'inputs': ['a'], 'output': 'e'}"));
            d.getAsJsonArray("outputs").add("e");
        })));
        c.add(of(Rule.MESH_DIDY, "a DIDy axis", "$.tensors[0].axes[0]",
                base(d -> tensor(d, "a").getAsJsonArray("axes").set(0, j("{'extent': 'D', 'parallel': 'DIDy'}")))));
        c.add(of(Rule.PARALLEL_DUPLICATE, "two Stream axes", "$.tensors[2].axes[1]",
                base(d -> tensor(d, "c").getAsJsonArray("axes").set(1, j("{'extent': 'M', 'parallel': 'Stream'}")))));
        c.add(of(Rule.STREAM_REDUCTION, "a Stream reduction axis", "$.tensors[2].axes[3]", base(d -> {
            var axes = tensor(d, "c").getAsJsonArray("axes");
            axes.set(0, j("'D'"));
            axes.set(3, j("{'extent': 'K', 'iter': 'reduction', 'parallel': 'Stream'}"));
        })));
        loopCases(c);
        return c;
    }

    /**
     * The base fusion in version 2 with tensor b [K, N] scheduled by {@code steps}; {@code extra} more fields.
     */
    private static JsonObject loop(String steps) {
        return base(d -> {
            d.addProperty("format", "hostir-fusion/2");
            tensor(d, "b").add("loop", j(steps));
        });
    }

    private static void loopCases(List<Case> c) {
        c.add(of(Rule.LOOP_VERSION, "loop steps in a version 1 file", "$.tensors[1].loop",
                base(d -> tensor(d, "b").add("loop", j("[{'outer_split': 0, 'factor': 'D'}]")))));
        c.add(of(Rule.LOOP_AXIS, "a split of loop position 2 of a 2-axis tensor", "$.tensors[1].loop[0].outer_split",
                loop("[{'outer_split': 2, 'factor': 'D'}]")));
        c.add(of(Rule.LOOP_FACTOR, "a split factor without a value", "$.tensors[1].loop[0].factor",
                loop("[{'split': 0, 'factor': 'S'}]")));
        c.add(of(Rule.LOOP_REORDER, "a reorder that repeats a position", "$.tensors[1].loop[1].reorder",
                loop("[{'split': 1, 'factor': 2}, {'reorder': [0, 0, 1]}]")));
        c.add(of(Rule.LOOP_LOGICAL_PARALLEL, "DIDx on a logical axis of a scheduled tensor", "$.tensors[0].axes[0]",
                base(d -> {
                    d.addProperty("format", "hostir-fusion/2");
                    tensor(d, "a").add("loop", j("[{'reorder': [0, 1, 2]}]"));
                })));
        c.add(of(Rule.LOOP_DID_INNER_SPLIT, "DIDx on the inner part of an outer split", "$.tensors[1].loop[1]",
                loop("[{'outer_split': 0, 'factor': 'D'}, {'parallelize': 1, 'type': 'DIDx'}]")));
        c.add(of(Rule.LOOP_DID_SPLIT, "DIDx on the outer part of an inner split", "$.tensors[1].loop[1]",
                loop("[{'split': 0, 'factor': 'D'}, {'parallelize': 0, 'type': 'DIDx'}]")));
        c.add(of(Rule.LOOP_SWIZZLE, "swizzle1d by Stream, not a device type", "$.tensors[1].loop[0].type",
                loop("[{'swizzle1d': 0, 'type': 'Stream'}]")));
        c.add(of(Rule.LOOP_SWIZZLE_EXTENT, "a swizzle1d axis of extent M = 4 on a mesh of 2", "$.tensors[1]",
                loop("[{'swizzle1d': 1, 'type': 'DIDx'}]")));
        c.add(of(Rule.LOOP_STREAM, "Stream on a merged axis", "$.tensors[1].loop[1]",
                loop("[{'merge': 0}, {'parallelize': 0, 'type': 'Stream'}]")));
        c.add(of(Rule.LOOP_INDIVISIBLE, "K = 3 split over 2 devices", "$.tensors[1].axes[0]", base(d -> {
            d.addProperty("format", "hostir-fusion/2");
            d.getAsJsonObject("symbols").addProperty("K", 3);
            tensor(d, "b").add("loop", j("[{'outer_split': 0, 'factor': 'D'}, {'parallelize': 0, 'type': 'DIDx'}]"));
        })));
    }

    /** Rules whose cases need something other than a file's text; each has its own test. */
    // SYMBOL_UNKNOWN is about a value from outside the file: CheckCommandTest and EngineTest give one
    static final List<Rule> TESTED_ELSEWHERE = List.of(Rule.FILE_READ, Rule.GRAPH_NO_OUTPUTS, Rule.SYMBOL_UNKNOWN);
}
