package org.hostir.studio.file;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntFunction;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.OpAttributes;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;

/**
 * Turns a document into Fusion IR. Numbering is by file order, so the same file always prints the same:
 * tensors {@code T0..} in the order of {@code tensors}, iter domains in the order their tensors and axes appear,
 * symbols as nvFuser's builder creates them ({@link SymbolNumbering}: one per axis of each tensor no op defines,
 * op outputs reusing their inputs'). Tensor labels are the file's names. Referential integrity (every
 * name defined once, every reference defined) is checked here, since the IR cannot even be built without it;
 * everything else is {@link FusionValidator}'s.
 */
public final class FusionConverter {
    /** The IR and every tensor of the file in file order (the IR itself only reaches tensors that are used). */
    public record Converted(Fusion fusion, List<TensorView> tensors, FusionLocator locator) {
        public Converted {
            tensors = List.copyOf(tensors);
        }
    }

    private final ParsedFusion source;
    private final FusionDocument doc;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    private FusionConverter(ParsedFusion source) {
        this.source = source;
        this.doc = source.document();
    }

    public static Converted convert(ParsedFusion source, FusionBindings bindings) throws FusionFileException {
        return new FusionConverter(source).run(bindings);
    }

    private Converted run(FusionBindings bindings) throws FusionFileException {
        IrBuilder b = new IrBuilder();
        SymbolNumbering symbols = new SymbolNumbering(b);
        Set<String> defined = new HashSet<>();
        doc.ops().forEach(op -> defined.add(op.output()));
        Map<String, TensorView> byName = new HashMap<>();
        Map<String, Integer> firstIndex = new HashMap<>();
        List<TensorView> tensors = new ArrayList<>();
        for (int i = 0; i < doc.tensors().size(); i++) {
            TensorSpec spec = doc.tensors().get(i);
            TensorView tv = tensor(b, spec, bindings, symbols, defined.contains(spec.name()));
            tensors.add(tv);
            Integer first = firstIndex.putIfAbsent(spec.name(), i);
            if (first != null) {
                String path = "$.tensors[" + i + "].name";
                report(path, new Subject.Tensor(i, spec.name()), Rule.NAME_DUPLICATE, "tensor "
                        + Texts.quote(spec.name())
                        + " is already defined by $.tensors[" + first + "] (line "
                        + source.lines().line("$.tensors[" + first + "]") + ")");
            } else {
                byName.put(spec.name(), tv);
            }
        }
        List<TensorView> inputs = names(doc.inputs(), "$.inputs", Subject.Input::new, byName);
        List<TensorView> outputs = names(doc.outputs(), "$.outputs", Subject.Output::new, byName);
        List<FusionOp> ops = new ArrayList<>();
        for (int k = 0; k < doc.ops().size(); k++) {
            FusionOp op = op(doc.ops().get(k), "$.ops[" + k + "]", new Subject.Op(k), byName);
            if (op != null) ops.add(op);
        }
        if (!diagnostics.isEmpty()) {
            diagnostics.sort(Comparator.comparingInt(Diagnostic::line));
            throw new FusionFileException(diagnostics);
        }
        Map<Integer, TensorView> numbered = new HashMap<>(symbols.resolve(ops, tensors, bindings));
        // loop transforms come after every tensor exists, as nvFuser's tests schedule a built fusion
        for (int i = 0; i < tensors.size(); i++) {
            TensorSpec spec = doc.tensors().get(i);
            TensorView tv = numbered.get(tensors.get(i).id());
            if (spec.needsVersion2()) numbered.put(tv.id(), withLoop(b, tv, spec, i, bindings));
        }
        if (!diagnostics.isEmpty()) throw new FusionFileException(diagnostics);
        markExpanded(ops, numbered);
        Fusion fusion = b.fusion(doc.name(), inputs.stream().map(t -> numbered.get(t.id())).toList(),
                ops.stream().map(op -> TensorSubstitution.apply(op, numbered)).toList(),
                outputs.stream().map(t -> numbered.get(t.id())).toList());
        return new Converted(fusion, tensors.stream().map(t -> numbered.get(t.id())).toList(),
                new FileLocator(source));
    }

    /**
     * An expand's output axes made from the input's broadcast axes are nvFuser's expanded broadcasts
     * ({@code bS{1 ex N}}, ops/alias.cpp expand): marked so they print so. A tensor with loop steps keeps its
     * axes (its loop domain is printed, which has no mark).
     */
    private static void markExpanded(List<FusionOp> ops, Map<Integer, TensorView> numbered) {
        for (FusionOp op : ops) {
            if (!(op instanceof FusionOp.Expand e)) continue;
            TensorView in = numbered.get(e.input().id());
            TensorView out = numbered.get(e.output().id());
            if (out.loop() != null || in.rank() != out.rank()) continue;
            List<IterDomain> axes = new ArrayList<>(out.axes());
            for (int i = 0; i < axes.size(); i++) {
                IterDomain a = axes.get(i);
                if (in.axis(i).isBroadcast() && a.iterType() == IterType.ITERATION) axes.set(i, a.withExpanded(true));
            }
            numbered.put(out.id(), out.withAxes(axes));
        }
    }

    private static TensorView tensor(IrBuilder b, TensorSpec spec, FusionBindings bindings, SymbolNumbering symbols,
                                     boolean definedByOp) {
        List<IterDomain> axes = new ArrayList<>();
        List<Extent> extents = symbols.extents(spec.axes().stream().map(AxisSpec::extent).toList(), definedByOp,
                bindings.devices());
        for (int k = 0; k < extents.size(); k++) {
            AxisSpec a = spec.axes().get(k);
            axes.add(b.iterDomain(extents.get(k), a.iter(), a.parallel()));
        }
        DeviceMesh mesh = switch (spec.mesh()) {
            case MeshSpec.Devices d -> new DeviceMesh(d.ids(), d.shape());
            case MeshSpec.AllDevices all -> DeviceMesh.forNumDevices(bindings.devices());
            case MeshSpec.Absent absent -> null;
        };
        return b.tensor(spec.name(), spec.dtype(), spec.memoryOrDefault(), mesh, axes);
    }

    /** The tensor scheduled by its file's loop steps; symbolic split factors take their bound values. */
    private TensorView withLoop(IrBuilder b, TensorView tv, TensorSpec spec, int index, FusionBindings bindings) {
        LoopDomain loop = tv.loopDomain().withAllocationIsLoop(spec.allocationIsLoop());
        for (int k = 0; k < spec.loop().size(); k++) {
            loop = switch (spec.loop().get(k)) {
                case LoopStep.Split s -> {
                    OptionalLong factor = switch (s.factor()) {
                        case ExtentSpec.Size size -> OptionalLong.of(size.value());
                        case ExtentSpec.Symbol sym -> bindings.value(sym.name());
                    };
                    if (factor.isEmpty()) {
                        report("$.tensors[" + index + "].loop[" + k + "].factor", new Subject.Tensor(index,
                                spec.name()), Rule.LOOP_FACTOR, "split factor " + s.factor() + " has no value;"
                                + " give it a default in \"symbols\" or a value with --set");
                        yield null; // the later steps count on this split's two axes: apply none of them
                    }
                    yield loop.split(s.axis(), Scalar.constant(factor.getAsLong()), s.innerSplit(),
                            b::nextIterDomainId);
                }
                case LoopStep.Merge m -> loop.merge(m.axis(), b::nextIterDomainId);
                case LoopStep.Reorder r -> loop.reorder(r.order());
                case LoopStep.Parallelize p -> loop.parallelize(p.axis(), p.type());
                case LoopStep.Swizzle1D z -> loop.swizzle1d(z.axis(), z.type(), b::nextIterDomainId);
            };
            if (loop == null) return tv;
        }
        return tv.withLoop(loop);
    }

    /** Resolves the names of {@code inputs} or {@code outputs}; each may be listed once. */
    private List<TensorView> names(List<String> names, String path, IntFunction<Subject> entry,
                                   Map<String, TensorView> byName) {
        List<TensorView> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            TensorView tv = resolve(name, path + "[" + i + "]", entry.apply(i), byName);
            if (tv == null) continue;
            if (!seen.add(name)) {
                report(path + "[" + i + "]", entry.apply(i), Rule.NAME_DUPLICATE, "tensor " + Texts.quote(name)
                        + " is listed twice");
                continue;
            }
            out.add(tv);
        }
        return out;
    }

    private TensorView resolve(String name, String path, Subject subject, Map<String, TensorView> byName) {
        TensorView tv = byName.get(name);
        if (tv == null) {
            report(path, subject, Rule.NAME_UNDEFINED, "no tensor named " + Texts.quote(name) + " in \"tensors\"");
        }
        return tv;
    }

    private FusionOp op(OpSpec spec, String path, Subject.Op subject, Map<String, TensorView> byName) {
        List<TensorView> in = new ArrayList<>();
        for (int m = 0; m < spec.inputs().size(); m++) {
            in.add(resolve(spec.inputs().get(m), path + ".inputs[" + m + "]", subject, byName));
        }
        TensorView out = resolve(spec.output(), path + ".output", subject, byName);
        if (in.size() < spec.op().minInputs() || in.size() > spec.op().maxInputs()) {
            // the reader rejects this; a document built in memory may still have it
            report(path + ".inputs", subject, Rule.SCHEMA_ARITY, spec.op().fileName() + " cannot take " + in.size()
                    + " inputs");
            return null;
        }
        if (out == null || in.contains(null)) return null;
        OpKind kind = spec.op();
        return kind.definition().build(kind.fileName(), out, in,
                new OpAttributes(spec.axes(), spec.flags(), spec.permute()));
    }

    /** {@code path} is the field to point at (its line), {@code subject} the element it belongs to. */
    private void report(String path, Subject subject, Rule rule, String message) {
        diagnostics.add(new Diagnostic(source.file(), source.lines().line(path), path, rule.id(), message, subject));
    }
}
