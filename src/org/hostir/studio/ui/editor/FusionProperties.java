package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ShardingReport.TensorSharding;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoopText;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.model.AxisText.ParseException;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.hostir.studio.ui.editor.model.Shardings;

/**
 * The Properties view of the fusion editor: the fusion (name, description, symbol defaults), a tensor (name,
 * dtype, memory, mesh, axes as one line, its loop steps as one line and each axis's extent, iter and parallel type;
 * its sharding after propagation, written or inferred and from where) or an op (kind,
 * operands, attributes). A computed tensor's shape is derived by its op: only its parallel types and mesh are
 * the user's. Every edit is validated before it becomes an operation.
 */
final class FusionProperties {
    private static final String[] DTYPES = Arrays.stream(DataType.values()).map(DataType::fileName)
            .toArray(String[]::new);
    private static final String[] MEMORY = { "global", "local", "shared" };
    private static final String[] ITER = Arrays.stream(IterType.values()).map(IterType::fileName).toArray(String[]::new);
    private static final String[] PARALLEL =
            Arrays.stream(ParallelType.values()).map(ParallelType::fileName).toArray(String[]::new);
    private static final String[] OPS = Arrays.stream(OpKind.values()).map(OpKind::fileName).toArray(String[]::new);
    private static final String[] BOOL = { "false", "true" };

    private FusionProperties() {}

    static PropertyList sourceFor(FusionCommands editor, Object element) {
        if (element instanceof PropertyList p) return p;
        if (!(element instanceof FusionElement e)) return null;
        FusionDocument doc = editor.model();
        if (e.isTensor()) return doc.tensor(e.tensor()).isPresent() ? tensor(editor, e.tensor()) : null;
        if (e.op() >= 0 && e.op() < doc.ops().size()) return op(editor, doc.ops().get(e.op()).output());
        return header(editor);
    }

    static PropertyList header(FusionCommands ed) {
        PropertyList l = new PropertyList(ed, "fusion");
        l.text("name", "Name", "Fusion", () -> ed.model().name(),
                v -> v.isBlank() || v.length() > 128 ? "1 to 128 characters" : null,
                v -> ed.edit("Rename fusion", d -> FusionEdits.setHeader(d, v, d.description(), d.symbols())));
        l.text("description", "Description", "Fusion", () -> ed.model().description(), v -> null,
                v -> ed.edit("Edit description", d -> FusionEdits.setHeader(d, d.name(), v, d.symbols())));
        l.text("symbols", "Symbol defaults", "Fusion", () -> symbols(ed.model().symbols()), v -> {
            try {
                parseSymbols(v);
                return null;
            } catch (ParseException x) {
                return x.getMessage();
            }
        }, v -> {
            try {
                Map<String, Long> s = parseSymbols(v);
                ed.edit("Edit symbols", d -> FusionEdits.setHeader(d, d.name(), d.description(), s));
            } catch (ParseException x) {
                ed.refuse(x.getMessage());
            }
        });
        return l;
    }

    static String symbols(Map<String, Long> symbols) {
        List<String> parts = new ArrayList<>();
        symbols.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(", ", parts);
    }

    /** {@code M=8, K=4}: defaults of symbolic extents; D is the device count and has none. */
    static Map<String, Long> parseSymbols(String text) throws ParseException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) continue;
            String[] kv = part.split("=");
            if (kv.length != 2) throw new ParseException("write symbols as NAME=VALUE, separated by commas");
            String k = kv[0].trim();
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) throw new ParseException("'" + k + "' is not a symbol name");
            if (k.equals("D")) throw new ParseException("D is the number of devices: it has no default");
            try {
                long v = Long.parseLong(kv[1].trim());
                if (v < 1 || v > (1L << 40)) throw new ParseException("a value is between 1 and 2^40");
                out.put(k, v);
            } catch (NumberFormatException x) {
                throw new ParseException("'" + kv[1].trim() + "' is not a positive integer");
            }
        }
        return out;
    }

    static PropertyList tensor(FusionCommands ed, String name) {
        PropertyList l = new PropertyList(ed, name);
        boolean computed = FusionEdits.producer(ed.model(), name).isPresent();
        l.text("name", "Name", "Tensor", () -> name, v -> {
            if (!v.matches("[A-Za-z_][A-Za-z0-9_]*")) return "a name is an identifier";
            return !v.equals(name) && ed.model().tensor(v).isPresent() ? "'" + v + "' exists already" : null;
        }, v -> {
            if (ed.renameTensor(name, v)) ed.selectTensorAfterGesture(v);
        });
        l.readOnly("role", "Role", "Tensor", () -> ed.model().inputs().contains(name) ? "fusion input"
                : computed ? "computed by op " + FusionEdits.opIndex(ed.model(), name) : "unconnected");
        l.choice("output", "Fusion output", "Tensor", BOOL, () -> String.valueOf(ed.model().outputs().contains(name)),
                v -> ed.edit("Fusion output", d -> FusionEdits.setOutput(d, name, Boolean.parseBoolean(v))));
        if (computed) {
            l.readOnly("dtype", "Data type", "Tensor", () -> t(ed, name).dtype().fileName());
        } else {
            l.choice("dtype", "Data type", "Tensor", DTYPES, () -> t(ed, name).dtype().fileName(),
                    v -> ed.setTensor(FusionEdits.withDtype(t(ed, name), DataType.fromFileName(v))));
        }
        l.choice("memory", "Memory", "Tensor", MEMORY, () -> t(ed, name).memoryOrDefault().dumpName(),
                v -> ed.setTensor(FusionEdits.withMemory(t(ed, name), memory(v))));
        l.suggesting("mesh", "Device mesh", "Tensor", () -> meshes(ed.model()), MESH_HINT,
                () -> AxisText.format(t(ed, name).mesh()), v -> {
            try {
                AxisText.parseMesh(v);
                return null;
            } catch (ParseException x) {
                return x.getMessage() + " (write 'all', device ids like '0 1', or nothing)";
            }
        }, v -> {
            try {
                ed.setTensor(FusionEdits.withMesh(t(ed, name), AxisText.parseMesh(v)));
            } catch (ParseException x) {
                ed.refuse(x.getMessage());
            }
        });
        if (computed) {
            l.readOnly("axes", "Axes", "Shape", () -> AxisText.format(t(ed, name).axes()));
        } else {
            l.text("axes", "Axes", "Shape", () -> AxisText.format(t(ed, name).axes()), FusionProperties::checkAxes, v -> {
                try {
                    ed.setTensor(FusionEdits.withAxes(t(ed, name), AxisText.parseAxes(v)));
                } catch (ParseException x) {
                    ed.refuse(x.getMessage());
                }
            });
        }
        loopSteps(l, ed, name);
        sharding(l, ed, name);
        int n = t(ed, name).axes().size();
        for (int i = 0; i < n; i++) {
            PropertyList axis = axis(ed, name, i, computed);
            l.readOnly("axis." + i, "Axis " + i, "Shape", () -> axis);
        }
        return l;
    }

    /**
     * The tensor's loop steps as nvFuser-like calls, computed tensors included (the schedule is the user's, as
     * parallel types are). Text that is not loop steps is refused with a one-line message; steps that do not fit
     * the tensor are applied and marked on the file's line by validation (rules loop.*), as any other problem.
     */
    private static void loopSteps(PropertyList l, FusionCommands ed, String name) {
        l.text("loop", "Loop steps", "Shape", () -> LoopText.format(t(ed, name)), v -> {
            try {
                LoopText.parse(v);
                return null;
            } catch (LoopText.SyntaxException x) {
                return x.getMessage();
            }
        }, v -> {
            try {
                LoopText.Parsed p = LoopText.parse(v);
                TensorSpec changed = FusionEdits.withLoop(t(ed, name), p.steps(), p.allocationIsLoop());
                ed.edit("Loop steps of " + name, d -> FusionEdits.setTensor(d, changed));
            } catch (LoopText.SyntaxException x) {
                ed.refuse(x.getMessage());
            }
        });
    }

    /**
     * The tensor's sharding after nvFuser's propagation (issue 34), read-only: its mesh and each axis, written or
     * inferred and where an inferred one came from ({@code DIDx (outer split by 2), inferred from w (T1) through
     * linear}). The Graph's E and I (Make sharding explicit, Clear sharding to inferred) change what is written.
     */
    private static void sharding(PropertyList l, FusionCommands ed, String name) {
        l.readOnly("sharding.mesh", "Mesh", "Sharding", () -> {
            TensorSharding s = ed.shardings().get(name);
            return s == null ? "not known: the fusion does not load" : Shardings.meshText(s);
        });
        int n = t(ed, name).axes().size();
        for (int i = 0; i < n; i++) {
            int axis = i;
            l.readOnly("sharding.axis." + i, "Axis " + i + " sharding", "Sharding", () -> {
                TensorSharding s = ed.shardings().get(name);
                return s == null || axis >= s.axes().size() ? "" : Shardings.axisText(s.axes().get(axis));
            });
        }
    }

    /** The Device mesh cell's description (the status line shows it while the cell is selected). */
    static final String MESH_HINT = "'all' for every device, device ids like '0 1' (rows '0 1; 2 3' for 2-D), or empty for none";

    /** What the Device mesh cell offers: all, none, then each mesh the fusion's tensors use. */
    static String[] meshes(FusionDocument doc) {
        LinkedHashSet<String> out = new LinkedHashSet<>(List.of("all", ""));
        for (TensorSpec t : doc.tensors()) out.add(AxisText.format(t.mesh()));
        return out.toArray(String[]::new);
    }

    private static String checkAxes(String v) {
        try {
            List<AxisSpec> axes = AxisText.parseAxes(v);
            return axes.size() > 64 ? "at most 64 axes" : null;
        } catch (ParseException x) {
            return x.getMessage() + " (write e.g. 'DIDx D, M, reduction K')";
        }
    }

    static PropertyList axis(FusionCommands ed, String tensor, int i, boolean computed) {
        PropertyList l = new PropertyList(ed, AxisText.format(t(ed, tensor).axes().get(i))) {
            @Override
            public Object getEditableValue() {
                // empty once the tensor is gone: the sheet reads the old rows once more after a rename from it
                List<AxisSpec> axes = ed.model().tensor(tensor).map(TensorSpec::axes).orElse(List.of());
                return i < axes.size() ? AxisText.format(axes.get(i)) : "";
            }
        };
        if (computed) {
            l.readOnly("extent", "Extent", null, () -> ax(ed, tensor, i).extent().toString());
            l.readOnly("iter", "Iter type", null, () -> ax(ed, tensor, i).iter().fileName());
        } else {
            l.text("extent", "Extent", null, () -> ax(ed, tensor, i).extent().toString(), v -> {
                try {
                    AxisText.parseExtent(v);
                    return null;
                } catch (ParseException x) {
                    return x.getMessage();
                }
            }, v -> {
                try {
                    ExtentSpec e = AxisText.parseExtent(v);
                    AxisSpec a = ax(ed, tensor, i);
                    setAxis(ed, tensor, i, new AxisSpec(e, a.iter(), a.parallel()));
                } catch (ParseException x) {
                    ed.refuse(x.getMessage());
                }
            });
            l.choice("iter", "Iter type", null, ITER, () -> ax(ed, tensor, i).iter().fileName(), v -> {
                AxisSpec a = ax(ed, tensor, i);
                setAxis(ed, tensor, i, new AxisSpec(a.extent(), IterType.fromFileName(v), a.parallel()));
            });
        }
        l.choice("parallel", "Parallel type", null, PARALLEL, () -> ax(ed, tensor, i).parallel().fileName(), v -> {
            AxisSpec a = ax(ed, tensor, i);
            setAxis(ed, tensor, i, new AxisSpec(a.extent(), a.iter(), ParallelType.fromFileName(v)));
        });
        return l;
    }

    private static void setAxis(FusionCommands ed, String tensor, int i, AxisSpec axis) {
        List<AxisSpec> axes = new ArrayList<>(t(ed, tensor).axes());
        axes.set(i, axis);
        ed.setTensor(FusionEdits.withAxes(t(ed, tensor), axes));
    }

    static PropertyList op(FusionCommands ed, String output) {
        PropertyList l = new PropertyList(ed, output);
        l.readOnly("index", "Index", "Op", () -> String.valueOf(FusionEdits.opIndex(ed.model(), output)));
        l.choice("kind", "Op", "Op", OPS, () -> o(ed, output).op().fileName(), v -> {
            OpSpec op = o(ed, output);
            OpKind kind = OpKind.fromFileName(v).orElseThrow();
            ed.setOp(new OpSpec(kind, op.inputs(), op.output(), List.of(), List.of(), List.of()));
        });
        l.text("inputs", "Operands", "Op", () -> String.join(", ", o(ed, output).inputs()), v -> {
            List<String> names = names(v);
            for (String n : names) if (ed.model().tensor(n).isEmpty()) return "no tensor named '" + n + "'";
            if (names.contains(output)) return "an op cannot read its own output";
            OpKind k = o(ed, output).op();
            return names.size() < k.minInputs() || names.size() > k.maxInputs()
                    ? k.fileName() + " takes " + (k.minInputs() == k.maxInputs() ? k.minInputs()
                    : k.minInputs() + " or " + k.maxInputs()) + " operands" : null;
        }, v -> {
            OpSpec op = o(ed, output);
            ed.setOp(new OpSpec(op.op(), names(v), output, op.axes(), op.flags(), op.permute()));
        });
        l.readOnly("output", "Output", "Op", () -> output);
        OpKind kind = o(ed, output).op();
        if (kind.isReduction()) {
            l.text("axes", "Reduced axes", "Attributes", () -> AxisText.formatList(o(ed, output).axes()),
                    FusionProperties::checkInts, v -> ed.setOp(o(ed, output).withAxes(ints(v))));
        } else if (kind == OpKind.BROADCAST || kind == OpKind.SQUEEZE) {
            boolean squeeze = kind == OpKind.SQUEEZE;
            l.text("flags", squeeze ? "Squeeze flags" : "Broadcast flags", "Attributes",
                    () -> AxisText.formatList(o(ed, output).flags()), v -> {
                try {
                    return AxisText.parseFlags(v).isEmpty()
                            ? "one flag per " + (squeeze ? "input" : "output") + " axis" : null;
                } catch (ParseException x) {
                    return x.getMessage();
                }
            }, v -> {
                try {
                    ed.setOp(o(ed, output).withFlags(AxisText.parseFlags(v)));
                } catch (ParseException x) {
                    ed.refuse(x.getMessage());
                }
            });
        } else if (kind == OpKind.SET) {
            l.text("permute", "Permute", "Attributes", () -> AxisText.formatList(o(ed, output).permute()),
                    FusionProperties::checkInts, v -> ed.setOp(o(ed, output).withPermute(ints(v))));
        }
        return l;
    }

    private static String checkInts(String v) {
        try {
            for (int i : AxisText.parseInts(v)) if (i < 0) return "axis positions are >= 0";
            return null;
        } catch (ParseException x) {
            return x.getMessage();
        }
    }

    private static List<Integer> ints(String v) {
        try {
            return AxisText.parseInts(v);
        } catch (ParseException x) {
            return List.of();
        }
    }

    private static List<String> names(String v) {
        return Arrays.stream(v.split("[,\\s]+")).filter(s -> !s.isEmpty()).toList();
    }

    private static MemoryType memory(String v) {
        for (MemoryType m : MemoryType.values()) if (m.dumpName().equals(v)) return m;
        return MemoryType.GLOBAL;
    }

    private static TensorSpec t(FusionCommands ed, String name) { return ed.model().tensor(name).orElseThrow(); }

    private static AxisSpec ax(FusionCommands ed, String name, int i) { return t(ed, name).axes().get(i); }

    private static OpSpec o(FusionCommands ed, String output) { return FusionEdits.producer(ed.model(), output).orElseThrow(); }
}
