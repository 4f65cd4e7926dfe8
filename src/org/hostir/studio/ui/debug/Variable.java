package org.hostir.studio.ui.debug;

import java.util.List;

import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.model.IDebugTarget;
import org.eclipse.debug.core.model.IValue;
import org.eclipse.debug.core.model.IVariable;

/**
 * A read-only variable of the Variables view: a loop index, a tensor (its value the one-line summary, its children
 * shape, dtype, mesh, device, bytes, statistics, first values and the reference difference) or one of those.
 */
final class Variable extends Element implements IVariable {
    /** A rank's live tensor at a stop, which the Tensor Values view opens as a table and heat map. */
    record TensorAt(RunTarget run, int stop, int rank, int tensorId, String name) {}

    private final String name;
    private final Value value;
    private final TensorAt tensor;

    Variable(IDebugTarget target, String name, String text, String type, List<Variable> children, TensorAt tensor) {
        super(target);
        this.name = name;
        this.value = new Value(target, text, type, children);
        this.tensor = tensor;
    }

    Variable(IDebugTarget target, String name, String text) { this(target, name, text, "", List.of(), null); }

    /** The tensor this variable shows, or null for a loop index or a tensor's part. */
    TensorAt tensor() { return tensor; }

    @Override
    public IValue getValue() { return value; }

    @Override
    public String getName() { return name; }

    @Override
    public String getReferenceTypeName() { return value.getReferenceTypeName(); }

    @Override
    public boolean hasValueChanged() { return false; }

    @Override
    public void setValue(String expression) throws DebugException { throw readOnly(); }

    @Override
    public void setValue(IValue v) throws DebugException { throw readOnly(); }

    @Override
    public boolean supportsValueModification() { return false; }

    @Override
    public boolean verifyValue(String expression) { return false; }

    @Override
    public boolean verifyValue(IValue v) { return false; }

    private DebugException readOnly() {
        return new DebugException(org.eclipse.core.runtime.Status.error("a stopped run's values are read-only"));
    }

    /** The value: a text, and children for a tensor. */
    static final class Value extends Element implements IValue {
        private final String text;
        private final String type;
        private final List<Variable> children;

        Value(IDebugTarget target, String text, String type, List<Variable> children) {
            super(target);
            this.text = text;
            this.type = type;
            this.children = List.copyOf(children);
        }

        @Override
        public String getReferenceTypeName() { return type; }

        @Override
        public String getValueString() { return text; }

        @Override
        public boolean isAllocated() { return true; }

        @Override
        public IVariable[] getVariables() { return children.toArray(IVariable[]::new); }

        @Override
        public boolean hasVariables() { return !children.isEmpty(); }
    }
}
