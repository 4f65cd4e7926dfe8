package org.hostir.studio.cli;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.FusionPrinter;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.rules.FusionBindings;

/**
 * The summary {@code check} prints: the fusion, its symbols (value, where the value comes from, nvFuser's
 * {@code i<n>}), its tensors (file name, printed IR name, shape, role), its ops, and the math as nvFuser prints
 * it. Deterministic, so tests and users can diff it.
 */
final class FusionSummary {
    private FusionSummary() {}

    static String print(LoadedFusion loaded) {
        FusionDocument doc = loaded.document();
        Fusion fusion = loaded.fusion();
        FusionBindings b = loaded.bindings();
        StringBuilder out = new StringBuilder();
        out.append("fusion ").append(Texts.printable(doc.name())).append(" (")
                .append(Texts.printable(loaded.source().file())).append(")\n");
        if (doc.description() != null && !doc.description().isBlank()) {
            out.append("  ").append(Texts.printable(doc.description().strip().replaceAll("\\s+", " "))).append('\n');
        }
        out.append("devices: ").append(b.devices()).append('\n');
        out.append("symbols:\n");
        Set<String> listed = new LinkedHashSet<>();
        for (Extent.Symbolic s : fusion.symbols()) {
            listed.add(s.name());
            out.append("  ").append(pad("i" + s.id(), 5)).append(pad(s.name(), 8)).append(value(b, doc, s.name()))
                    .append('\n');
        }
        for (String name : doc.symbols().keySet()) {
            if (listed.add(name)) {
                out.append("  ").append(pad("-", 5)).append(pad(name, 8)).append(value(b, doc, name))
                        .append(", used by no axis\n");
            }
        }
        out.append("tensors:\n");
        int width = doc.tensors().stream().mapToInt(t -> t.name().length()).max().orElse(0) + 2;
        int shapeWidth = doc.tensors().stream().mapToInt(t -> shape(t).length()).max().orElse(0) + 2;
        List<TensorView> tensors = loaded.tensors();
        for (int i = 0; i < tensors.size(); i++) {
            TensorSpec spec = doc.tensors().get(i);
            TensorView tv = tensors.get(i);
            out.append("  ").append(pad(spec.name(), width)).append(pad(shape(spec), shapeWidth))
                    .append(role(fusion, tv)).append('\n');
            out.append("  ").append(" ".repeat(width)).append(IrText.tensor(tv)).append('\n');
            // a Swizzle1D is no split: the loop domain alone does not show it, so it is printed as nvFuser does
            if (tv.loop() == null) continue;
            for (IterTransform t : tv.loop().transforms()) {
                if (t instanceof IterTransform.Swizzle1D z) {
                    out.append("  ").append(" ".repeat(width)).append(IrText.swizzle1d(z, tv.loop())).append('\n');
                }
            }
        }
        out.append("ops:\n");
        List<String> fileOps = doc.ops().stream().map(FusionSummary::op).toList();
        int opWidth = fileOps.stream().mapToInt(String::length).max().orElse(0) + 2;
        for (int k = 0; k < fileOps.size(); k++) {
            FusionOp ir = fusion.ops().get(k);
            out.append("  ").append(pad(fileOps.get(k), opWidth)).append(ir.output().name()).append(" = ")
                    .append(ir.opName()).append('(')
                    .append(ir.inputs().stream().map(TensorView::name).collect(Collectors.joining(", ")))
                    .append(")\n");
        }
        out.append("math:\n");
        FusionPrinter.print(fusion).lines()
                .forEach(l -> out.append(l.isEmpty() ? "" : "  ").append(l).append('\n'));
        return out.toString();
    }

    private static String value(FusionBindings b, FusionDocument doc, String name) {
        var v = b.value(name);
        if (v.isEmpty()) return "unbound (bind it with --set " + name + "=N)";
        String source = name.equals(FusionBindings.DEVICES_SYMBOL) ? "--devices"
                : doc.symbols().containsKey(name) && doc.symbols().get(name) == v.getAsLong() ? "default" : "--set";
        return "= " + v.getAsLong() + " (" + source + ")";
    }

    /** {@code [DIDx D, M, rK]}: the file's view of a shape. */
    static String shape(TensorSpec t) {
        return t.axes().stream().map(a -> {
            String prefix = a.iter() == IterType.REDUCTION ? "r" : a.iter() == IterType.BROADCAST ? "b" : "";
            String parallel = a.parallel() == ParallelType.SERIAL ? "" : a.parallel().fileName() + " ";
            return parallel + prefix + a.extent();
        }).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String role(Fusion fusion, TensorView tv) {
        boolean in = fusion.inputs().stream().anyMatch(t -> t.id() == tv.id());
        boolean out = fusion.outputs().stream().anyMatch(t -> t.id() == tv.id());
        boolean computed = fusion.definition(tv).isPresent();
        if (in && out) return "input, output";
        if (in) return "input";
        if (out) return "output";
        if (computed) return "intermediate";
        return "unused";
    }

    /** {@code out = matmul(a, b)} with the op's attributes. */
    private static String op(OpSpec op) {
        return op.output() + " = " + op.op().fileName() + "(" + String.join(", ", op.inputs()) + ")" + attributes(op);
    }

    private static String attributes(OpSpec op) {
        if (!op.axes().isEmpty()) return " axes=" + op.axes();
        if (!op.flags().isEmpty()) return " flags=" + op.flags();
        if (!op.permute().isEmpty()) return " permute=" + op.permute();
        return "";
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + "  " : s + " ".repeat(width - s.length());
    }
}
