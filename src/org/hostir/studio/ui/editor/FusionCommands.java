package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import org.eclipse.core.commands.ExecutionException;
import org.eclipse.core.commands.operations.IUndoContext;
import org.eclipse.core.commands.operations.ObjectUndoContext;
import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.views.properties.PropertySheet;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.hostir.studio.ui.editor.model.Groups;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.NewOperands;
import org.hostir.studio.ui.editor.model.Shardings;
import org.hostir.studio.ui.editor.model.SubgraphCopy;

/**
 * The editor's edit domain (GEF's EditDomain with its command stack): the document the graph edits, and one
 * undoable {@link DocumentOperation} per edit in the workbench history. The palette, the graph's gestures, its
 * context menu and the Properties view all edit through here; an edit the model refuses changes nothing and
 * says why.
 */
public final class FusionCommands {
    /** How far left of a dropped op its new operands go, and half the height between two of them. */
    private static final int OPERAND_DX = 200, OPERAND_DY = 50;
    private final FusionEditor editor;
    private final IUndoContext undoContext;
    private FusionDocument model;
    private String lastError;
    /** While one gesture edits several things (a Properties edit of a multi-selection): the model before it. */
    private FusionDocument compoundBefore;
    private final List<String> compoundLabels = new ArrayList<>();

    FusionCommands(FusionEditor editor) {
        this.editor = editor;
        this.undoContext = new ObjectUndoContext(editor, "Fusion graph");
    }

    /** The document the graph shows and edits (the last valid state while the source does not parse). */
    public FusionDocument model() { return model; }

    void setModel(FusionDocument doc) { model = doc; }

    public IUndoContext undoContext() { return undoContext; }

    /** The last refused edit's message (also shown in the status line), or null. */
    public String lastError() { return lastError; }

    /** Applies one edit as one undoable operation; an edit the model refuses changes nothing and says why. */
    public boolean edit(String label, UnaryOperator<FusionDocument> change) {
        FusionDocument before = model, after;
        if (editor.sourceWouldBeLost()) {
            // the graph would overwrite the user's unparsable text: they fix or undo it on the Source page first
            refuse("The source does not parse: fix it on the Source page before editing the graph");
            return false;
        }
        try {
            after = change.apply(before);
        } catch (RuntimeException e) {
            refuse(label + ": " + (e.getMessage() == null ? "not possible here" : e.getMessage()));
            return false;
        }
        if (after == null || after.equals(before)) return false;
        lastError = null;
        editor.status(null);
        if (compoundBefore != null) {
            // inside one gesture: collect; compound() makes the one operation when the gesture ends
            model = after;
            compoundLabels.add(label);
            return true;
        }
        return execute(label, before, after);
    }

    private boolean execute(String label, FusionDocument before, FusionDocument after) {
        try {
            OperationHistoryFactory.getOperationHistory().execute(
                    new DocumentOperation(label, undoContext, editor, before, after), null, null);
            return true;
        } catch (ExecutionException e) {
            editor.show(before, true);
            refuse(label + ": " + e.getMessage());
            return false;
        }
    }

    /**
     * Runs {@code gesture}, whose edits become ONE undoable operation (GEF's compound command per property-sheet
     * edit): undo restores the model from before the gesture, redo the model after it, whatever the gesture did
     * to how many tensors. The source is rewritten and checked once, at the end.
     */
    public void compound(Runnable gesture) {
        if (compoundBefore != null) {
            gesture.run();
            return;
        }
        FusionDocument before = model;
        compoundBefore = before;
        compoundLabels.clear();
        try {
            gesture.run();
        } finally {
            // the edits made are committed even when the gesture fails after them (the sheet's refresh): else the
            // model would hold them while the text and the graph do not
            compoundBefore = null;
            FusionDocument after = model;
            if (!after.equals(before)) {
                model = before;
                List<String> labels = List.copyOf(compoundLabels);
                execute(labels.size() == 1 ? labels.get(0)
                        : labels.size() + " edits (" + String.join(", ", labels) + ")", before, after);
            }
        }
    }

    /** The user's text parses again: the last refusal (the status line's red message) no longer applies. */
    void clearRefusal() {
        if (lastError == null) return;
        lastError = null;
        editor.status(null);
    }

    void refuse(String message) {
        lastError = message;
        editor.status(message);
    }

    public String addInputTensor() {
        String name = FusionEdits.freshName(model);
        return edit("Add input " + name, d -> FusionEdits.addInput(d, name)) ? name : null;
    }

    /**
     * Adds an op reading {@code inputs} (in order); returns its output tensor's name. With nothing selected the op
     * gets new input tensors as its operands ({@link NewOperands}), as nvFuser defines an op's inputs before the op.
     */
    public String addOp(OpKind kind, List<String> inputs) { return addOp(kind, inputs, Map.of()); }

    /**
     * Adds an op (or, with {@code kind} null, an input tensor) where the palette item was dropped: the op's circle
     * at {@code x, y} (figure pixels, snapped to the grid), its output tensor to the right, new operands (nothing
     * selected) to the left. One operation.
     */
    public String addAt(OpKind kind, List<String> inputs, int x, int y) {
        int px = GraphGestures.snap(x), py = GraphGestures.snap(y);
        if (kind == null) {
            String name = FusionEdits.freshName(model);
            Map<String, Layout.Position> placed = shownPositions();
            placed.put(name, new Layout.Position(px, py));
            return edit("Add input " + name, d -> {
                FusionDocument added = FusionEdits.addInput(d, name);
                return added.withLayout(Layout.withPositions(added.layout(), placed));
            }) ? name : null;
        }
        return addOp(kind, inputs, Map.of(Layout.opKey(""), new Layout.Position(px, py)));
    }

    /** {@code at}: where the op goes (key {@code op:}), or empty for the layout's choice. */
    private String addOp(OpKind kind, List<String> inputs, Map<String, Layout.Position> at) {
        int operands = inputs.isEmpty() ? NewOperands.count(kind) : 0;
        List<String> names = FusionEdits.freshNames(model, operands + 1);
        String out = names.get(operands);
        List<String> reads = inputs.isEmpty() ? names.subList(0, operands) : inputs;
        boolean done = edit("Add " + kind.fileName(), d -> {
            if (operands > 0) for (TensorSpec t : NewOperands.of(d, kind, reads)) d = FusionEdits.addInputTensor(d, t);
            FusionDocument added = FusionEdits.addOp(d, kind, reads, out);
            Layout.Position p = at.get(Layout.opKey(""));
            if (p == null) return added;
            Map<String, Layout.Position> placed = shownPositions();
            // new operands go OPERAND_DX left of the op, OPERAND_DY apart: an op dropped nearer the canvas's left
            // or top edge than they need moves right or down by what they lack (they were clamped to x = 0 under
            // the op's circle, issue 35)
            int x = Math.max(p.x(), operands > 0 ? OPERAND_DX : 0), y = Math.max(p.y(), (operands - 1) * OPERAND_DY);
            placed.put(Layout.opKey(out), new Layout.Position(x, y));
            placed.put(out, new Layout.Position(x + 90, y));
            for (int i = 0; i < operands; i++) {
                placed.put(reads.get(i), new Layout.Position(x - OPERAND_DX, y + (2 * i - operands + 1) * OPERAND_DY));
            }
            return added.withLayout(Layout.withPositions(added.layout(), placed));
        });
        return done ? out : null;
    }

    /** Where the graph shows every node now: kept in the layout by an edit that places new nodes, so nothing moves. */
    private Map<String, Layout.Position> shownPositions() {
        return new LinkedHashMap<>(editor.graph().viewer().positions());
    }

    public boolean connect(String tensor, String opOutput, int slot) {
        return edit("Connect " + tensor, d -> FusionEdits.connect(d, tensor, opOutput, slot));
    }

    public boolean renameTensor(String from, String to) {
        if (!to.matches("[A-Za-z_][A-Za-z0-9_]*") || to.length() > 128) {
            refuse("'" + to + "' is not a tensor name (letters, digits and _, not starting with a digit)");
            return false;
        }
        if (model.tensor(to).isPresent()) {
            refuse("a tensor named '" + to + "' exists already");
            return false;
        }
        return edit("Rename " + from, d -> FusionEdits.renameTensor(d, from, to));
    }

    /**
     * Selects tensor {@code name} once the gesture under way is applied: a tensor renamed from the Properties view
     * stays selected under its new name, so the sheet goes on showing it (the graph's selection drops the old name).
     */
    void selectTensorAfterGesture(String name) {
        var display = Display.getCurrent();
        if (display == null) return;
        display.asyncExec(() -> {
            if (!editor.isDisposed() && model.tensor(name).isPresent()) {
                editor.select(List.of(FusionElement.tensor(null, name)));
                // the workbench tells the sheet only the active part's selections, and the sheet is the active one
                if (editor.getSite().getPage().findView(IPageLayout.ID_PROP_SHEET)
                        instanceof PropertySheet sheet) {
                    sheet.selectionChanged(editor, editor.getSite().getSelectionProvider().getSelection());
                }
            }
        });
    }

    public boolean setTensor(TensorSpec spec) { return edit("Edit " + spec.name(), d -> FusionEdits.setTensor(d, spec)); }

    public boolean setOp(OpSpec op) { return edit("Edit op " + op.op().fileName(), d -> FusionEdits.setOp(d, op)); }

    /** Deletes the nodes of {@code keys} (tensors, and ops as {@code op:<output>}): one operation. */
    public void delete(List<String> keys) {
        if (keys.isEmpty()) return;
        edit("Delete", d -> {
            for (String k : keys) {
                d = k.startsWith(Layout.OP_PREFIX) ? FusionEdits.deleteOp(d, k.substring(Layout.OP_PREFIX.length()))
                        : FusionEdits.deleteTensor(d, k);
            }
            return d;
        });
    }

    void toggleOutput(List<String> tensors) {
        for (String t : tensors) {
            boolean on = !model.outputs().contains(t);
            edit(on ? "Mark output" : "Unmark output", d -> FusionEdits.setOutput(d, t, on));
        }
    }

    /** The shardings after propagation of the document shown (for the Properties view). */
    Shardings shardings() { return editor.shardings(); }

    /**
     * Writes the inferred sharding of each of {@code tensors} into the file, mesh and axes (issue 34): one operation;
     * a selection with nothing inferred is refused with a message.
     */
    public boolean makeShardingExplicit(List<String> tensors) {
        Shardings s = editor.shardings();
        return editEach("Make sharding explicit", "inferred", tensors, s::hasInferred, s::makeExplicit);
    }

    /** Clears what is written of each of {@code tensors}' sharding, so that propagation infers it: one operation. */
    public boolean clearShardingToInferred(List<String> tensors) {
        return editEach("Clear sharding to inferred", "written", tensors,
                t -> model.tensor(t).map(Shardings::hasWritten).orElse(false), Shardings::clearToInferred);
    }

    /** One operation applying {@code change} to each of {@code tensors} that {@code applies} to, or a refusal. */
    private boolean editEach(String label, String what, List<String> tensors, Predicate<String> applies,
                             BiFunction<FusionDocument, String, FusionDocument> change) {
        List<String> some = tensors.stream().filter(applies).toList();
        if (some.isEmpty()) {
            refuse(label + ": " + (tensors.isEmpty() ? "select a tensor"
                    : "nothing of " + String.join(", ", tensors) + " is " + what));
            return false;
        }
        return edit(label + " (" + String.join(", ", some) + ")", d -> {
            for (String t : some) d = change.apply(d, t);
            return d;
        });
    }

    /** Stores node positions in the file's layout section; false when nothing changed. */
    boolean move(String label, Map<String, Layout.Position> positions) {
        return edit(label, d -> d.withLayout(Layout.withPositions(d.layout(), positions)));
    }

    /** Makes a group (a compound node of the graph) of the nodes {@code keys}, stored in the layout section. */
    boolean group(List<String> keys) {
        if (keys.isEmpty()) return false;
        String name = Groups.freshName(model.layout());
        return edit("Group " + name, d -> d.withLayout(Groups.with(d.layout(), new Groups.Group(name, keys, false))));
    }

    /** Collapses a group into one box, or expands it again. */
    boolean setCollapsed(Groups.Group g, boolean collapsed) {
        return edit((collapsed ? "Collapse " : "Expand ") + g.name(),
                d -> d.withLayout(Groups.with(d.layout(), new Groups.Group(g.name(), g.nodes(), collapsed))));
    }
}
