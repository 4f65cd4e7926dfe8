package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.ExportNames;
import org.hostir.studio.ir.op.OpFamily;

/**
 * A script for nvFuser's Python frontend ({@code nvfuser_direct}) that defines the fusion and its multi-device
 * schedule and runs it, written with only the calls nvFuser's own Python tests make (docs/nvfuser-interop.md
 * names the test file of each): the definition and schedule as in {@code tests/python/multidevice/test_overlap.py}
 * ({@code fusion_definition}, {@code multidevice_schedule}), the communicator and sharding as its
 * {@code conftest.py}, the run through {@code MultiDeviceExecutor} as {@code test_overlap.py}. Run it with one
 * process per device ({@code mpirun -np D python3 script.py}).
 */
public final class PythonExporter {
    static final Set<String> RESERVED = Set.of("fd", "mesh", "tensors", "num_devices", "nvfuser", "torch",
            "params",
            "executor", "outputs", "ins", "communicator", "d", "False", "None", "True", "and", "as", "assert",
            "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
            "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
            "return", "try", "while", "with", "yield", "print", "range", "list", "len", "type", "id", "input",
            // the module's imports, which fusion_definition reads (a local of that name would hide them)
            "DataType", "CommunicatorBackend", "FusionDefinition");

    private PythonExporter() {}

    /**
     * The script. The fusion's name, its description (null for none) and {@code source} (the file it came from) are
     * user text: they enter only through {@link PythonText}, in comments from the third line on (Python reads an
     * encoding declaration, PEP 263, from a comment on line 1 or 2, so those two lines are the exporter's own).
     */
    public static String export(Fusion fusion, String description, int devices, Map<String, Long> symbols,
                                String source) throws ExportException {
        ExportPlan plan = new ExportPlan(fusion, devices, symbols, RESERVED);
        plan.checkExportable(true);
        for (TensorView t : fusion.tensors()) {
            if (t.mesh() != null && !MeshLookup.isIdentity(t.mesh())) {
                throw new ExportException(new Subject.Mesh(t.subject()), "mesh " + t.mesh().deviceIds()
                        + " is not {0 .. n-1}: nvFuser's Python tests build meshes only as DeviceMesh(torch.arange(n)), so the export has no call for it");
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("# Exported by Host IR Studio: a script for nvFuser's Python frontend (nvfuser_direct).\n")
                .append("# Run with one process per device: mpirun -np ").append(devices).append(" python3 THIS.py\n")
                .append("# fusion ").append(PythonText.inComment(fusion.name())).append(" from ")
                .append(PythonText.inComment(source)).append('\n');
        if (description != null && !description.isBlank()) {
            out.append("# description: ").append(PythonText.literal(description)).append('\n');
        }
        out.append("import torch\n\nimport nvfuser_direct as nvfuser\n")
                .append("from nvfuser_direct import CommunicatorBackend, DataType, FusionDefinition\n\n\n");
        definition(plan, out);
        schedule(plan, out);
        main(plan, out);
        return out.toString();
    }

    static String names(ExportPlan p, List<TensorView> tvs) {
        return tvs.stream().map(p::name).collect(Collectors.joining(", "));
    }

    private static void definition(ExportPlan p, StringBuilder out) throws ExportException {
        out.append("def fusion_definition(fd):\n");
        for (TensorView t : p.fusion.inputs()) {
            List<String> shape = new ArrayList<>();
            for (IterDomain a : t.allocationAxes()) shape.add(a.isBroadcast() ? "1" : "-1");
            out.append("    ").append(p.name(t)).append(" = fd.define_tensor(shape=[").append(String.join(", ", shape))
                    .append("], contiguity=True, dtype=").append(dtype(t.dtype())).append(")\n");
        }
        for (FusionOp op : p.fusion.ops()) {
            out.append("    ").append(p.name(op.output())).append(" = ").append(call(op, p)).append('\n');
        }
        for (TensorView t : p.fusion.outputs()) out.append("    fd.add_output(").append(p.name(t)).append(")\n");
        out.append("    return [").append(names(p, p.fusion.tensors())).append("]\n\n\n");
    }

    private static void schedule(ExportPlan p, StringBuilder out) throws ExportException {
        out.append("def multidevice_schedule(fd, tensors, num_devices):\n");
        out.append("    ").append(names(p, p.fusion.tensors())).append(p.fusion.tensors().size() == 1 ? ", = " : " = ")
                .append("tensors\n");
        for (var m : p.meshes.entrySet()) {
            out.append("    ").append(m.getValue()).append(" = nvfuser.multidevice.DeviceMesh(torch.arange(")
                    .append(p.isAllDevices(m.getKey()) ? "num_devices" : String.valueOf(m.getKey().size()))
                    .append("))\n");
        }
        for (TensorView t : p.fusion.tensors()) {
            if (t.mesh() != null) {
                out.append("    ").append(p.name(t)).append(".set_device_mesh(").append(p.meshes.get(t.mesh()))
                        .append(")\n");
            }
        }
        for (ExportPlan.Parallelized x : p.parallelized) {
            out.append("    ").append(p.name(x.tensor())).append(".axis(").append(x.axis())
                    .append(").parallelize(nvfuser.ParallelType.").append(parallel(x.type())).append(")\n");
        }
        for (TensorView t : p.fusion.tensors()) {
            if (t.loop() == null) continue;
            // a factor of the device count on the all-devices mesh is the test's num_devices, as nvFuser writes it
            boolean byDevices = t.mesh() != null && p.isAllDevices(t.mesh());
            for (LoopCalls.Call c : LoopCalls.of(t)) {
                out.append("    ").append(loopCall(p.name(t), c, byDevices ? p.devices : -1)).append('\n');
            }
        }
        if (p.meshes.isEmpty() && p.parallelized.isEmpty()) out.append("    pass\n");
        out.append("\n\n");
    }

    private static void main(ExportPlan p, StringBuilder out) throws ExportException {
        out.append("communicator = nvfuser.multidevice.Communicator.instance()\n")
                .append("torch.cuda.set_device(communicator.local_rank())\n")
                .append("torch.manual_seed(0)  # every rank makes the same unsharded inputs\n\n")
                .append("with FusionDefinition() as fd:\n    tensors = fusion_definition(fd)\n")
                .append("    multidevice_schedule(fd, tensors, communicator.size())\n\n");
        List<String> ins = new ArrayList<>();
        for (int i = 0; i < p.fusion.inputs().size(); i++) {
            TensorView t = p.fusion.inputs().get(i);
            String unsharded = PythonInputs.unsharded(p, t);
            String name = "t_" + p.name(t);
            out.append(name).append(" = ").append(t.mesh() != null
                    ? "nvfuser.multidevice.shard_tensor(" + unsharded + ", fd.fusion.inputs()[" + i + "])"
                    : unsharded).append(".cuda(communicator.local_rank())\n");
            ins.add(name);
        }
        out.append("\nparams = nvfuser.multidevice.MultiDeviceExecutorParams()\n")
                .append("params.backend_type = CommunicatorBackend.nccl\n")
                .append("executor = nvfuser.multidevice.MultiDeviceExecutor(fd.fusion, params)\n")
                .append("outputs = executor.run([").append(String.join(", ", ins)).append("])\n");
    }

    /** The op's Python spelling is its family's ({@link OpFamily}); the plan names tensors and shapes. */
    static String call(FusionOp op, ExportPlan p) throws ExportException {
        return OpFamily.definition(op).python(op, new ExportNames<ExportException>() {
            public String name(TensorView t) { return p.name(t); }

            public List<Long> shape(TensorView t) throws ExportException { return p.shape(t); }

            public String dtype(DataType t) { return dtypeName(t); }
        });
    }

    /** int64 is nvFuser's DataType.Int (python/nvfuser_direct/pytorch_utils.py:24 at 81c4b22fd: torch.long). */
    static String dtype(DataType t) {
        return dtypeName(t);
    }

    private static String dtypeName(DataType t) {
        return switch (t) {
            case FLOAT -> "DataType.Float";
            case BFLOAT16 -> "DataType.BFloat16";
            case HALF -> "DataType.Half";
            case INT64 -> "DataType.Int";
            case DOUBLE -> "DataType.Double";
            case INT32 -> "DataType.Int32";
            case BOOL -> "DataType.Bool";
            case FLOAT8_E4M3FN -> "DataType.Float8_e4m3fn";
            case FLOAT8_E5M2 -> "DataType.Float8_e5m2";
        };
    }

    static String torch(DataType t) {
        return switch (t) {
            case FLOAT -> "torch.float32";
            case BFLOAT16 -> "torch.bfloat16";
            case HALF -> "torch.float16";
            case INT64 -> "torch.int64";
            case DOUBLE -> "torch.float64";
            case INT32 -> "torch.int32";
            case BOOL -> "torch.bool";
            case FLOAT8_E4M3FN -> "torch.float8_e4m3fn";
            case FLOAT8_E5M2 -> "torch.float8_e5m2";
        };
    }

    /** nvfuser_direct's TensorView calls (python/python_direct/ir.cpp), as tests/python/direct/test_tutorial.py. */
    private static String loopCall(String tv, LoopCalls.Call c, long devices) {
        // A local, not `tv + switch`: ECJ writes wrong stack-map frames for a switch with a loop inside a
        // string concatenation (VerifyError under Tycho).
        String call = switch (c) {
            case LoopCalls.Split s -> (s.innerSplit() ? ".split(" : ".outer_split(") + s.axis() + ", "
                    + (s.factor() == devices ? "num_devices" : Long.toString(s.factor())) + ")";
            case LoopCalls.Merge m -> ".merge(" + m.axis() + ", " + (m.axis() + 1) + ")";
            case LoopCalls.Reorder r -> {
                List<String> pairs = new ArrayList<>();
                for (int i = 0; i < r.from().size(); i++) {
                    if (r.from().get(i) != i) pairs.add(r.from().get(i) + ": " + i);
                }
                yield ".reorder({" + String.join(", ", pairs) + "})";
            }
            case LoopCalls.Parallelize p -> ".axis(" + p.axis() + ").parallelize(nvfuser.ParallelType."
                    + parallel(p.type()) + ")";
            case LoopCalls.Swizzle1D z -> ".swizzle1d(" + z.axis() + ", nvfuser.ParallelType." + parallel(z.type()) + ")";
            case LoopCalls.AllocationIsLoop a -> ".set_allocation_domain(" + tv + ".get_loop_domain(), new_contiguity=True)";
        };
        return tv + call;
    }

    static String parallel(ParallelType t) {
        return switch (t) {
            case SERIAL -> throw new IllegalStateException("a serial axis is never parallelized");
            case DIDX -> "mesh_x";
            case DIDY -> "mesh_y";
            case STREAM -> "stream";
        };
    }
}
