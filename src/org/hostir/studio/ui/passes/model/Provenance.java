package org.hostir.studio.ui.passes.model;

import java.util.List;

import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.TensorMentions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.ui.FusionElement;

/**
 * Maps Host IR nodes to the fusion file's ops and tensors and back. The container's provenance names an op of the
 * <em>lowered</em> fusion (after DecomposeReshardings inserted its sets), so the link goes through the op's output
 * tensor label, which is the file's tensor name; an inserted set falls back to the file tensor it reads.
 */
public final class Provenance {
    private final String file;
    private final FusionDocument document;
    private final Fusion lowered;

    public Provenance(String file, FusionDocument document, PassTrace.RankTrace rank) {
        this.file = file;
        this.document = document;
        Fusion last = null;
        for (PassTrace.Step s : rank.steps()) {
            if (s.after() instanceof Snapshot.OfFusion(Fusion f, _)) last = f;
        }
        this.lowered = last != null ? last
                : rank.input() instanceof Snapshot.OfFusion(Fusion f, _) ? f : null;
    }

    /** The file element a node (or the nearest enclosing node with provenance) came from; null if none. */
    public FusionElement elementOf(HostIrContainer program, PassRow row) {
        for (PassRow r = row; r != null; r = r.parent()) {
            if (r.node() == null) continue;
            Integer op = program.provenance().get(r.node().id());
            if (op != null) return elementOfOp(op);
        }
        return null;
    }

    private FusionElement elementOfOp(int loweredOp) {
        if (lowered == null || loweredOp < 0 || loweredOp >= lowered.ops().size()) return null;
        FusionOp op = lowered.ops().get(loweredOp);
        int index = fileOp(op.output().label());
        if (index >= 0) return FusionElement.op(file, index);
        for (TensorView in : op.inputs()) {
            if (document.tensor(in.label()).isPresent()) return FusionElement.tensor(file, in.label());
        }
        return null;
    }

    private int fileOp(String outputName) {
        List<OpSpec> ops = document.ops();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).output().equals(outputName)) return i;
        }
        return -1;
    }

    /**
     * The rows a selection elsewhere selects: for an op, the nodes lowered from it; for a tensor, the nodes whose
     * printed line names it ({@link TensorMentions}), else those lowered from an op that reads or writes it.
     */
    public List<PassRow> rowsOf(HostIrContainer program, List<PassRow> rows, FusionElement selected) {
        TensorView tv = selected != null && selected.isTensor() && file.equals(selected.file()) && lowered != null
                ? lowered.tensors().stream().filter(t -> t.label().equals(selected.tensor())).findFirst().orElse(null)
                : null;
        if (tv == null) return rows.stream().filter(r -> matches(program, r, selected)).toList();
        return TensorMentions.rowsFor(rows, r -> r.node() == null ? "" : r.text(), tv,
                r -> matches(program, r, selected));
    }

    /** Whether a node's element is the selected one: the same op, or an op that reads or writes the tensor. */
    private boolean matches(HostIrContainer program, PassRow row, FusionElement selected) {
        if (selected == null || !file.equals(selected.file()) || row.node() == null) return false;
        Integer loweredOp = program.provenance().get(row.node().id());
        if (loweredOp == null || lowered == null || loweredOp >= lowered.ops().size()) return false;
        if (!selected.isTensor()) {
            FusionElement own = elementOfOp(loweredOp);
            return own != null && !own.isTensor() && own.op() == selected.op();
        }
        FusionOp op = lowered.ops().get(loweredOp);
        if (op.output().label().equals(selected.tensor())) return true;
        return op.inputs().stream().anyMatch(t -> t.label().equals(selected.tensor()));
    }
}
