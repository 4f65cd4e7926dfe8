package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * A script for the Python frontend of nvFuser at the seeds' revision (43b9a1aa5, {@code --nvfuser 2025-06}): the
 * {@code nvfuser} module's FusionDefinition subclassed with {@code definition} and {@code multidevice_schedule}, the
 * schedule through {@code self.sched} ({@code _set_device_mesh}, {@code parallelize}, {@code split(t, dim, factor,
 * inner_split)}, {@code merge}, {@code reorder}, {@code set_allocation_as_loop}:
 * python/python_frontend/schedule_bindings.cpp:52-165 at 43b9a1aa5), inputs sharded by
 * {@code DeviceMesh.shard_tensor(t, axis, device_id)} (multidevice_bindings.cpp:66-76) and run by
 * {@code fd.execute}, as that revision's tests/python/multidevice/test_matmul.py writes them. Ops are spelled as
 * {@link PythonExporter} spells them ({@code fd.ops.*}, the same names in both frontends), with {@code fd} the
 * definition itself. What the seeds cannot spell is refused: swizzle1d (added later), a mesh other than
 * {0 .. n-1}.
 */
public final class LegacyPythonExporter {
    private static final Set<String> RESERVED = reserved();

    private LegacyPythonExporter() {}

    private static Set<String> reserved() {
        Set<String> out = new HashSet<>(PythonExporter.RESERVED);
        out.addAll(List.of("self", "Model", "shard", "unsharded"));
        return Set.copyOf(out);
    }

    /** The script; user text enters only through {@link PythonText}, in comments from the third line on. */
    public static String export(Fusion fusion, String description, int devices, Map<String, Long> symbols,
                                String source) throws ExportException {
        ExportPlan plan = new ExportPlan(fusion, devices, symbols, RESERVED);
        plan.checkExportable(true);
        for (TensorView t : fusion.tensors()) {
            DeviceMesh m = t.mesh();
            if (m != null && (!plan.isAllDevices(m) || m.rank() != 1)) {
                throw new ExportException(new Subject.Mesh(t.subject()), "mesh " + m.deviceIds() + " is not {0 .. D-1} of all devices: the seeds'"
                        + " Python tests build their one mesh as nvfuser.DeviceMesh(range(d))");
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("# Exported by Host IR Studio: a script for nvFuser's Python frontend as of 2025-06 (nvfuser, 43b9a1aa5).\n")
                .append("# Run with one process per device: mpirun -np ").append(devices).append(" python3 THIS.py\n")
                .append("# fusion ").append(PythonText.inComment(fusion.name())).append(" from ")
                .append(PythonText.inComment(source)).append('\n');
        if (description != null && !description.isBlank()) {
            out.append("# description: ").append(PythonText.literal(description)).append('\n');
        }
        out.append("import torch\n\nimport nvfuser\nfrom nvfuser import DataType, FusionDefinition\n\n\n")
                .append("class Model(FusionDefinition):\n")
                .append("    def __init__(self, num_devices):\n        super().__init__()\n")
                .append("        self._num_devices = num_devices\n\n");
        definition(plan, out);
        schedule(plan, out);
        main(plan, out);
        return out.toString();
    }

    private static void definition(ExportPlan p, StringBuilder out) throws ExportException {
        for (TensorView t : p.fusion.tensors()) {
            // the 2026-04 export spells them; this one's ops and inputs were checked against the seeds' tests only
            if (t.dtype() == DataType.INT64) {
                throw new ExportException(t.subject(), "int64 tensor " + p.name(t) + ": the 2025-06 export does not write"
                        + " int64 tensors (their index ops are unchecked against the seeds' frontend); export with"
                        + " --nvfuser 2026-04");
            }
        }
        out.append("    def definition(self):\n        fd = self\n");
        for (TensorView t : p.fusion.inputs()) {
            List<String> shape = new ArrayList<>();
            for (IterDomain a : t.allocationAxes()) shape.add(a.isBroadcast() ? "1" : "-1");
            out.append("        ").append(p.name(t)).append(" = fd.define_tensor(shape=[")
                    .append(String.join(", ", shape)).append("], contiguity=True, dtype=")
                    .append(PythonExporter.dtype(t.dtype())).append(")\n");
        }
        for (FusionOp op : p.fusion.ops()) {
            out.append("        ").append(p.name(op.output())).append(" = ").append(PythonExporter.call(op, p))
                    .append('\n');
        }
        for (TensorView t : p.fusion.outputs()) out.append("        fd.add_output(").append(p.name(t)).append(")\n");
        out.append("        self._tensors = [").append(PythonExporter.names(p, p.fusion.tensors())).append("]\n\n");
    }

    private static void schedule(ExportPlan p, StringBuilder out) throws ExportException {
        out.append("    def multidevice_schedule(self):\n");
        out.append("        ").append(PythonExporter.names(p, p.fusion.tensors()))
                .append(p.fusion.tensors().size() == 1 ? ", = " : " = ").append("self._tensors\n")
                .append("        num_devices = self._num_devices\n");
        if (!p.meshes.isEmpty()) out.append("        mesh = nvfuser.DeviceMesh(range(num_devices))\n");
        for (TensorView t : p.fusion.tensors()) {
            if (t.mesh() != null) out.append("        self.sched._set_device_mesh(").append(p.name(t)).append(", mesh)\n");
        }
        for (ExportPlan.Parallelized x : p.parallelized) {
            out.append("        self.sched.parallelize(").append(p.name(x.tensor())).append(", ").append(x.axis())
                    .append(", nvfuser.ParallelType.").append(PythonExporter.parallel(x.type())).append(")\n");
        }
        for (TensorView t : p.fusion.tensors()) {
            if (t.loop() == null) continue;
            for (LoopCalls.Call c : LoopCalls.of(t)) {
                out.append("        ").append(loopCall(t, p.name(t), c, p.devices)).append('\n');
            }
        }
        out.append("\n\n");
    }

    /** SchedOperators' calls at 43b9a1aa5; swizzle1d did not exist there. */
    private static String loopCall(TensorView t, String tv, LoopCalls.Call c, long devices)
            throws ExportException {
        String call = switch (c) {
            case LoopCalls.Split s -> "split(" + tv + ", " + s.axis() + ", "
                    + (s.factor() == devices ? "num_devices" : Long.toString(s.factor())) + ", "
                    + (s.innerSplit() ? "True" : "False") + ")";
            case LoopCalls.Merge m -> "merge(" + tv + ", " + m.axis() + ")";
            case LoopCalls.Reorder r -> {
                List<String> pairs = new ArrayList<>();
                for (int i = 0; i < r.from().size(); i++) {
                    if (r.from().get(i) != i) pairs.add(r.from().get(i) + ": " + i);
                }
                yield "reorder(" + tv + ", {" + String.join(", ", pairs) + "})";
            }
            case LoopCalls.Parallelize q -> "parallelize(" + tv + ", " + q.axis() + ", nvfuser.ParallelType."
                    + PythonExporter.parallel(q.type()) + ")";
            case LoopCalls.Swizzle1D z -> throw new ExportException(t.subject(), tv + " is scheduled by swizzle1d, which the"
                    + " seeds' frontend does not have (it came with the CollectivePermute overlap): export with"
                    + " --nvfuser 2026-04");
            case LoopCalls.AllocationIsLoop a -> "set_allocation_as_loop(" + tv + ")";
        };
        return "self.sched." + call;
    }

    private static void main(ExportPlan p, StringBuilder out) throws ExportException {
        out.append("communicator = nvfuser.Communicator.instance()\n")
                .append("torch.cuda.set_device(communicator.local_rank())\n")
                .append("torch.manual_seed(0)  # every rank makes the same unsharded inputs\n")
                .append("mesh = nvfuser.DeviceMesh(range(communicator.size()))\n")
                .append("fd = Model(communicator.size())\n\n");
        List<String> ins = new ArrayList<>();
        for (TensorView t : p.fusion.inputs()) {
            String unsharded = PythonInputs.unsharded(p, t);
            int axis = ExportPlan.shardedAxis(t);
            String name = "t_" + p.name(t);
            out.append(name).append(" = ").append(t.mesh() != null && axis >= 0
                    ? "mesh.shard_tensor(" + unsharded + ", " + axis + ", communicator.rank())" : unsharded)
                    .append(".cuda(communicator.local_rank())\n");
            ins.add(name);
        }
        out.append("\noutputs, _ = fd.execute([").append(String.join(", ", ins)).append("])\n");
    }
}
