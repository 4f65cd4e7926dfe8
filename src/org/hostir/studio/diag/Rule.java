package org.hostir.studio.diag;

/**
 * Every rule a fusion file or a fusion can break. The id is what diagnostics print in brackets; the
 * description is the rule in words (the format documentation lists them).
 */
public enum Rule {
    // reading the file
    FILE_READ("file.read", "the file can be read"),
    JSON_ENCODING("json.encoding", "the file is UTF-8"),
    JSON_SYNTAX("json.syntax", "the file is well-formed JSON"),
    JSON_LIMIT("json.limit", "the file stays within the size, nesting and count limits"),
    JSON_DUPLICATE_KEY("json.duplicate-key", "no object has the same key twice"),
    JSON_STRING("json.string", "strings hold no raw control character (U+0000 to U+001F) and no lone surrogate,"
            + " raw or escaped (RFC 8259, sections 7 and 8.2)"),
    // the document's structure (what the JSON Schema says)
    SCHEMA_FORMAT("schema.format", "\"format\" is \"hostir-fusion/1\" or \"hostir-fusion/2\""),
    SCHEMA_REQUIRED("schema.required", "required fields are present"),
    SCHEMA_UNKNOWN_FIELD("schema.unknown-field", "there are no unknown fields"),
    SCHEMA_TYPE("schema.type", "each field has the JSON type the format gives it"),
    SCHEMA_ENUM("schema.enum", "op names, dtypes, memory, iter and parallel types are known values"),
    SCHEMA_RANGE("schema.range", "numbers are integers in range and lists are not too long"),
    SCHEMA_NAME("schema.name", "the fusion's, tensors' and symbols' names are identifiers"),
    SCHEMA_ARITY("schema.arity", "each op has the number of inputs it takes"),
    SCHEMA_ATTRIBUTE("schema.attribute", "op attributes (axes, flags, permute) belong to the op and are complete"),
    SYMBOL_RESERVED("symbol.reserved", "the symbol D is bound by --devices, not by a default"),
    SYMBOL_UNKNOWN("symbol.unknown", "a value given from outside the file (--set, a launch configuration) is for a"
            + " symbol the fusion has"),
    // names
    NAME_DUPLICATE("name.duplicate", "each tensor name is defined once and listed once in inputs and outputs"),
    NAME_UNDEFINED("name.undefined", "every referenced tensor name is defined in \"tensors\""),
    // the dataflow graph
    GRAPH_REDEFINED("graph.redefined", "each tensor is defined by at most one op"),
    GRAPH_INPUT_DEFINED("graph.input-defined", "fusion inputs are not defined by ops"),
    GRAPH_UNDEFINED("graph.undefined", "every tensor an op reads and every output is an input or defined by an op"),
    GRAPH_CYCLE("graph.cycle", "the ops form no cycle"),
    GRAPH_ORDER("graph.order", "ops are listed in dataflow order (producers first)"),
    GRAPH_NO_OUTPUTS("graph.no-outputs", "the fusion has at least one output"),
    // shapes and types through each op
    SHAPE_SET("shape.set", "set keeps the extents of the input's non-reduction axes"),
    SHAPE_PERMUTE("shape.permute", "set with permute has a permutation and permutes the extents"),
    SHAPE_BINARY("shape.binary", "binary ops combine equal extents (or a broadcast axis of extent 1)"),
    SHAPE_REDUCTION("shape.reduction", "sum/max/min/prod keep the input's axes, the reduced ones as reduction axes"),
    SHAPE_BROADCAST("shape.broadcast", "broadcast inserts broadcast axes where flags are true"),
    SHAPE_MATMUL("shape.matmul", "matmul follows at::matmul: [..batch.., M, N, rK]"),
    SHAPE_LINEAR("shape.linear", "linear follows at::linear: input [.., K], weight [N, K], bias [N] -> [.., N, rK]"),
    SHAPE_UNARY("shape.unary", "unary ops and casts keep the input's extents"),
    SHAPE_WHERE("shape.where", "where combines its condition, x and y as binary ops combine their operands"),
    SHAPE_SQUEEZE("shape.squeeze", "squeeze has one flag per input axis and removes only broadcast (extent 1) axes"),
    SHAPE_RESHAPE("shape.reshape", "reshape keeps the number of elements"),
    SHAPE_INDEX_SELECT("shape.index-select", "index_select takes one axis of its input, a 1-D integer index, and"
            + " gives the input's shape with that axis of the index's extent (csrc/ops/indexing.cpp:51)"),
    SHAPE_TAKE_ALONG_AXIS("shape.take-along-axis", "take_along_axis takes one whole (unsharded, unstreamed) axis of"
            + " its input and an integer index of the input's rank and extents but along that axis; the output has the"
            + " index's shape (csrc/ops/indexing.cpp:306)"),
    SHAPE_TOPK("shape.topk", "topk and topk_indices take one whole (unsharded, unstreamed) axis of their input (axes [dim], flags [largest,"
            + " sorted]) and give the input's shape with that axis of extent k, k at most the axis's extent"
            + " (csrc/ops/arith.cpp:2497)"),
    SHAPE_SCATTER("shape.scatter", "scatter takes self, an int64 index and src of one rank, the index no larger than"
            + " src and, but along axes[0], than self; the output has self's shape; its tensors have no DID or Stream axis"
            + " (csrc/ops/indexing.cpp:197, csrc/multidevice/propagation.cpp:107)"),
    SHAPE_GROUPED_MM("shape.grouped-mm", "grouped_mm takes [m, k] x [k, n] -> [g, m, n, rk], [g, m, k] x [k, n] or"
            + " [m, k] x [g, k, n] -> [m, n, rk] with 1-D int32 offsets [g] (csrc/ops/arith.cpp:2279)"),
    SHARDING_GROUPED_MM("sharding.grouped-mm", "grouped_mm's tensors may be sharded on DID axes except the"
            + " offsets, a group axis and the axis the groups split (m of [m, k] x [g, k, n], n of [g, m, k] x [k, n],"
            + " k of [m, k] x [k, n]); none has a Stream axis"),
    RESHAPE_SHARDED_AXIS("reshape.sharded-axis", "a reshape keeps each DID axis whole (it does not split or merge"
            + " a sharded axis) with the same parallel type"),
    SHAPE_EXPAND("shape.expand", "expand keeps the input's axes, a broadcast (extent 1) axis taking any extent"),
    DTYPE_MISMATCH("dtype.mismatch", "an op's inputs and output have the same dtype (a float op such as exp gives"
            + " float for an integer or bool input, as nvFuser promotes it)"),
    DTYPE_CAST("dtype.cast", "a cast is between dtypes nvFuser has a cast function for (none between fp8 and"
            + " integers or bool, none between the two fp8 types)"),
    DTYPE_BOOL("dtype.bool", "bool tensors have PyTorch's meaning: no neg, relu or sub of bool (use a where or a"
            + " cast), no div of bool (PyTorch's gives float), and a sum or prod of bool gives int64"),
    DTYPE_FP8("dtype.fp8", "fp8 tensors are matmul and linear inputs, cast from or to, or moved by set and broadcast"),
    DTYPE_MATMUL("dtype.matmul", "matmul and linear take float, bfloat16, half or double operands of one dtype, or fp8"
            + " operands (not both e5m2) with a float, bfloat16 or half output, as cuBLASLt does"),
    // meshes and parallel types
    MESH_EMPTY("mesh.empty", "a device mesh has at least one device"),
    MESH_DUPLICATE("mesh.duplicate", "a device mesh lists each device once"),
    MESH_DEVICE_RANGE("mesh.device-range", "mesh device ids are between 0 and --devices - 1"),
    MESH_MISSING("mesh.missing", "a tensor with a DID axis has a device mesh"),
    MESH_MIXED("mesh.mixed", "either every tensor has a device mesh or none has"),
    PROPAGATION_NO_MESH("propagation.no-mesh", "in a fusion with device meshes, an op connects every tensor without"
            + " one to a tensor with one, so that sharding propagation gives it a mesh"),
    MESH_DID_EXTENT("mesh.did-extent", "a DID axis's extent equals its mesh's size"),
    MESH_STREAM_ALLGATHER("mesh.stream-allgather", "a set from a DIDx axis to a Stream axis (the pipelined"
            + " allgather) keeps its mesh"),
    MESH_DIDY("mesh.didy", "a DIDy axis is on a 2-D mesh (hostir-fusion/2: a list of rows)"),
    PARALLEL_DUPLICATE("parallel.duplicate", "a tensor has at most one axis of each parallel type"),
    STREAM_REDUCTION("stream.reduction", "a Stream axis is not a reduction axis"),
    // loop domains (hostir-fusion/2)
    LOOP_VERSION("loop.version", "\"loop\", \"allocation\" and 2-D meshes need \"format\": \"hostir-fusion/2\""),
    LOOP_AXIS("loop.axis", "a loop step names a position of the loop domain as it is at that step"),
    LOOP_FACTOR("loop.factor", "a split factor is a positive integer or a symbol with a value (D, a default in"
            + " \"symbols\", --set)"),
    LOOP_REORDER("loop.reorder", "reorder gives a permutation of all loop positions"),
    LOOP_LOGICAL_PARALLEL("loop.logical-parallel", "a tensor with loop steps has its parallel types on loop axes,"
            + " not on logical axes"),
    LOOP_DID_INNER_SPLIT("loop.did-inner-split", "a device-parallel loop axis is not the inner part of a split"
            + " (nvFuser: \"we don't support DID on inner splits\")"),
    LOOP_DID_SPLIT("loop.did-split", "a device-parallel loop axis is a logical axis or the outer part of one outer"
            + " split of a logical axis (nvFuser's isValidDeviceSplit)"),
    LOOP_SWIZZLE("loop.swizzle1d", "swizzle1d takes a device parallel type (DIDx, DIDy), as nvFuser's"
            + " TensorView::swizzle1d"),
    LOOP_SWIZZLE_EXTENT("loop.swizzle-extent", "a swizzle1d axis's extent is its mesh's size along the swizzle's"
            + " parallel type (the swizzle cycles over those devices)"),
    LOOP_STREAM("loop.stream", "a Stream loop axis is a logical axis or the outer part of one outer split of"
            + " a logical axis (nvFuser's ShardByStream chunks the logical axis; it refuses inner parts and merges)"),
    LOOP_INDIVISIBLE("loop.indivisible", "an axis sharded by a split has an extent that is a multiple of the"
            + " mesh size, so every device holds an equal part");

    private final String id;
    private final String description;

    Rule(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() { return id; }

    public String description() { return description; }
}
