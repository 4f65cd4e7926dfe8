package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.ExportNames;
import org.hostir.studio.ir.op.OpFamily;

/**
 * The body of an nvFuser C++ test for a fusion, in the style of the seeds' tests
 * ({@code tests/cpp/test_multidevice_stream_parallel_type.cpp}): tensors from {@code makeContigTensor} and the ops,
 * {@code fusion->addInput}/{@code addOutput}, meshes and {@code setDeviceMesh}, {@code axis(i)->parallelize},
 * then a {@code MultiDeviceExecutor} run on inputs drawn valid for their role ({@link CppInputs}) and sharded with
 * {@code shardTensor}. It belongs in a fixture with {@code communicator_} (nvFuser's {@code MultiDeviceTest}).
 */
public final class CppTestExporter {
    /**
     * Names a tensor's variable cannot take: the C++20 keywords and alternative tokens, the test's own variables, and
     * every function, type and macro the body names (a variable {@code matmul} would hide the function it calls).
     */
    private static final Set<String> RESERVED = reserved();

    private static Set<String> reserved() {
        Set<String> r = new HashSet<>(List.of("alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
                "bitor", "bool", "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl",
                "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
                "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
                "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
                "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
                "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return",
                "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
                "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
                "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final", "override",
                "import", "module", "NULL", "assert", "int64_t",
                "fusion", "fg", "mesh", "executor", "options", "outputs", "D", "communicator_", "at", "std",
                "Fusion", "FusionGuard", "TensorView", "DeviceMesh", "ParallelType", "DataType", "IrBuilder", "Val",
                "MultiDeviceExecutor", "makeContigTensor", "shardTensor", "set", "permute", "castOp", "where",
                "squeeze", "reshape", "expand", "broadcast", "matmul", "linear"));
        for (OpFamily f : OpFamily.values()) r.addAll(f.definition().fileNames());
        return Set.copyOf(r);
    }

    private CppTestExporter() {}

    /**
     * The test body. The fusion's name, its description (null for none) and {@code source} (the file it came from)
     * are user text: they enter only through {@link CppText}, as do the tensors' and symbols' names in comments.
     */
    public static String export(Fusion fusion, String description, int devices, Map<String, Long> symbols,
                                String source) throws ExportException {
        ExportPlan plan = new ExportPlan(fusion, devices, symbols, RESERVED);
        plan.checkExportable(true);
        StringBuilder out = new StringBuilder();
        out.append("// Exported by Host IR Studio: the body of a TEST_F in a fixture with communicator_")
                .append(" (nvFuser's MultiDeviceTest).\n// fusion ").append(CppText.inComment(fusion.name()))
                .append(" from ").append(CppText.inComment(source)).append('\n');
        if (description != null && !description.isBlank()) {
            out.append("// description: ").append(CppText.literal(description)).append('\n');
        }
        out.append("auto fusion = std::make_unique<Fusion>();\nFusionGuard fg(fusion.get());\n\n");
        for (TensorView t : fusion.inputs()) {
            out.append("TensorView* ").append(plan.name(t)).append(" = makeContigTensor(")
                    .append(t.allocationAxes().size()).append(dtype(t.dtype())).append(");").append(comment(t))
                    .append('\n');
        }
        for (FusionOp op : fusion.ops()) {
            out.append("TensorView* ").append(plan.name(op.output())).append(" = ").append(call(op, plan))
                    .append(";").append(comment(op.output())).append('\n');
        }
        out.append('\n');
        for (TensorView t : fusion.inputs()) out.append("fusion->addInput(").append(plan.name(t)).append(");\n");
        for (TensorView t : fusion.outputs()) out.append("fusion->addOutput(").append(plan.name(t)).append(");\n");
        schedule(plan, out);
        run(plan, out);
        return out.toString();
    }

    private static void schedule(ExportPlan plan, StringBuilder out) throws ExportException {
        if (!plan.meshes.isEmpty()) out.append('\n');
        for (var m : plan.meshes.entrySet()) {
            out.append("const DeviceMesh ").append(m.getValue()).append(plan.isAllDevices(m.getKey())
                    ? " = DeviceMesh::createForNumDevices(communicator_->size());\n" : "(" + ids(m.getKey()) + ");\n");
        }
        for (TensorView t : plan.fusion.tensors()) {
            if (t.mesh() != null) {
                out.append(plan.name(t)).append("->setDeviceMesh(").append(plan.meshes.get(t.mesh())).append(");\n");
            }
        }
        if (!plan.parallelized.isEmpty()) out.append('\n');
        for (ExportPlan.Parallelized p : plan.parallelized) {
            out.append(plan.name(p.tensor())).append("->axis(").append(p.axis()).append(")->parallelize(ParallelType::")
                    .append(parallel(p.type())).append(");\n");
        }
        for (TensorView t : plan.fusion.tensors()) {
            if (t.loop() == null) continue;
            // a factor of the device count on the all-devices mesh is the test's communicator size, as nvFuser writes it
            boolean byDevices = t.mesh() != null && plan.isAllDevices(t.mesh());
            for (LoopCalls.Call c : LoopCalls.of(t)) {
                out.append(loopCall(plan.name(t), c, byDevices ? plan.devices : -1)).append(";\n");
            }
        }
    }

    /** nvFuser's TensorView scheduling calls, as its multi-device tests write them. */
    private static String loopCall(String tv, LoopCalls.Call c, long devices) {
        // A local, not `tv + switch`: ECJ writes wrong stack-map frames for a switch with a loop inside a
        // string concatenation (VerifyError under Tycho).
        String call = switch (c) {
            case LoopCalls.Split s -> (s.innerSplit() ? "->split(" : "->outer_split(") + s.axis() + ", "
                    + (s.factor() == devices ? "communicator_->size()" : Long.toString(s.factor())) + ")";
            case LoopCalls.Merge m -> "->merge(" + m.axis() + ")";
            case LoopCalls.Reorder r -> {
                List<String> pairs = new ArrayList<>();
                for (int i = 0; i < r.from().size(); i++) {
                    if (r.from().get(i) != i) pairs.add("{" + r.from().get(i) + ", " + i + "}");
                }
                yield "->reorder({" + String.join(", ", pairs) + "})";
            }
            case LoopCalls.Parallelize p -> "->axis(" + p.axis() + ")->parallelize(ParallelType::"
                    + parallel(p.type()) + ")";
            case LoopCalls.Swizzle1D z -> "->swizzle1d(" + z.axis() + ", ParallelType::" + parallel(z.type()) + ")";
            case LoopCalls.AllocationIsLoop a -> "->setAllocationDomain(" + tv + "->getLoopDomain(), true)";
        };
        return tv + call;
    }

    private static void run(ExportPlan plan, StringBuilder out) throws ExportException {
        out.append("\nMultiDeviceExecutor executor(std::move(fusion), *communicator_);\n\n");
        out.append("auto options = at::TensorOptions().device(communicator_->device());\n");
        List<String> args = new ArrayList<>();
        for (TensorView t : plan.fusion.inputs()) {
            String name = "t_" + plan.name(t);
            int sharded = ExportPlan.shardedAxis(t);
            String random = CppInputs.unsharded(plan, t);
            if (sharded >= 0 && t.mesh() != null) {
                out.append("at::Tensor ").append(name).append("_unsharded = ").append(random).append(";\n")
                        .append("at::Tensor ").append(name).append(" = shardTensor(").append(name)
                        .append("_unsharded, /*axis=*/").append(sharded).append(", ")
                        .append(plan.meshes.get(t.mesh())).append(");\n");
            } else {
                out.append("at::Tensor ").append(name).append(" = ").append(random).append(";\n");
            }
            args.add(name);
        }
        out.append("auto outputs = executor.runWithInput({").append(String.join(", ", args)).append("});\n");
    }

    /** The op's C++ spelling is its family's ({@link OpFamily}); the plan names tensors and shapes. */
    private static String call(FusionOp op, ExportPlan p) throws ExportException {
        return OpFamily.definition(op).cpp(op, new ExportNames<ExportException>() {
            public String name(TensorView t) { return p.name(t); }

            public List<Long> shape(TensorView t) throws ExportException { return p.shape(t); }

            public String dtype(DataType t) { return "DataType::" + dataTypeName(t); }
        });
    }

    private static String joined(List<?> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String ids(DeviceMesh mesh) { return "{" + joined(mesh.deviceIds()) + "}"; }

    /** makeContigTensor's dtype argument, none for its default (float). */
    private static String dtype(DataType t) {
        return t == DataType.FLOAT ? "" : ", DataType::" + dataTypeName(t);
    }

    static boolean randnDrawable(DataType t) { return t.isFloatingPoint() && !t.isFloat8(); }

    /** nvFuser's C++ DataType constant. */
    static String dataTypeName(DataType t) {
        return switch (t) {
            case FLOAT -> "Float";
            case BFLOAT16 -> "BFloat16";
            case HALF -> "Half";
            case INT64 -> "Int";
            case DOUBLE -> "Double";
            case INT32 -> "Int32";
            case BOOL -> "Bool";
            case FLOAT8_E4M3FN -> "Float8_e4m3fn";
            case FLOAT8_E5M2 -> "Float8_e5m2";
        };
    }

    static String aten(DataType t) {
        return switch (t) {
            case FLOAT -> "at::kFloat";
            case BFLOAT16 -> "at::kBFloat16";
            case HALF -> "at::kHalf";
            case INT64 -> "at::kLong";
            case DOUBLE -> "at::kDouble";
            case INT32 -> "at::kInt";
            case BOOL -> "at::kBool";
            case FLOAT8_E4M3FN -> "at::kFloat8_e4m3fn";
            case FLOAT8_E5M2 -> "at::kFloat8_e5m2";
        };
    }

    static String parallel(ParallelType t) {
        return switch (t) {
            case SERIAL -> "Serial";
            case DIDX -> "DIDx";
            case DIDY -> "DIDy";
            case STREAM -> "Stream";
        };
    }

    /** The file's name and axes, as the seeds comment their tensors ({@code //[DIDx(D), M/D, K]}). */
    private static String comment(TensorView t) {
        List<String> axes = new ArrayList<>();
        for (IterDomain a : t.axes()) {
            String extent = switch (a.extent()) {
                case Extent.Constant c -> String.valueOf(c.value());
                case Extent.Symbolic s -> CppText.inComment(s.name());
            };
            String e = a.isReduction() ? "r(" + extent + ")" : extent;
            axes.add(a.parallelType() == ParallelType.SERIAL ? e : parallel(a.parallelType()) + "(" + e + ")");
        }
        return " // " + CppText.inComment(t.label()) + " [" + String.join(", ", axes) + "]";
    }
}
