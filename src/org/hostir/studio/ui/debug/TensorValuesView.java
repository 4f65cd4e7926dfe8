package org.hostir.studio.ui.debug;

import java.util.Optional;

import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.tensor.DenseTensor;

/**
 * A tensor of the Variables view, whole (Window > Show View > Debug > Tensor Values): the rank's values at the
 * stop as a table (a row per index of the leading axes, a column per index of the last) beside a heat map of the
 * same cells, or the difference from the unsharded reference's shard of it ({@code value - reference}: zero, white,
 * where the rank is right; a tensor nothing has written yet has no difference, "not written yet"). Selecting a tensor in the Variables view shows it; a later stop leaves it as it was
 * (the title says which stop).
 */
public final class TensorValuesView extends ViewPart implements ISelectionListener {
    public static final String ID = "org.hostir.studio.ui.debug.TensorValuesView";
    /** The most rows and columns shown (a larger tensor's first ones; the title says so). */
    static final int MAX_ROWS = 512;
    static final int MAX_COLUMNS = 64;

    private Button values;
    private Button difference;
    private Table table;
    private Canvas heat;
    private Variable.TensorAt shown;
    private double[] cells = new double[0];
    private int rows;
    private int columns;
    private double scale = 1;
    private String problem;

    @Override
    public void createPartControl(Composite parent) {
        Composite top = new Composite(parent, SWT.NONE);
        top.setLayout(new GridLayout(2, false));
        values = new Button(top, SWT.RADIO);
        values.setText("&Values");
        values.setSelection(true);
        difference = new Button(top, SWT.RADIO);
        difference.setText("&Difference from reference");
        values.addListener(SWT.Selection, e -> fill());
        difference.addListener(SWT.Selection, e -> fill());
        SashForm sash = new SashForm(top, SWT.HORIZONTAL);
        sash.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 2, 1));
        table = new Table(sash, SWT.BORDER | SWT.FULL_SELECTION | SWT.V_SCROLL | SWT.H_SCROLL);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        heat = new Canvas(sash, SWT.DOUBLE_BUFFERED | SWT.BORDER);
        heat.addPaintListener(e -> paint(e.gc, heat.getClientArea()));
        sash.setWeights(3, 2);
        getSite().getPage().addSelectionListener(IDebugUIConstants.ID_VARIABLE_VIEW, this);
        setContentDescription("select a tensor in the Variables view");
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(IDebugUIConstants.ID_VARIABLE_VIEW, this);
        super.dispose();
    }

    @Override
    public void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof Variable v
                && v.tensor() != null) {
            show(v.tensor());
        }
    }

    /** Shows {@code tensor} as it is now on its rank. */
    void show(Variable.TensorAt tensor) {
        shown = tensor;
        fill();
    }

    /** Whether the difference from the reference is shown rather than the values. */
    public boolean showsDifference() { return difference.getSelection(); }

    /** The table (its cells the texts shown). */
    public Table table() { return table; }

    /** The cells shown, row after row: the values, or their difference from the reference. */
    public double[] cells() { return cells.clone(); }

    public int rows() { return rows; }

    public int columns() { return columns; }

    /** The colour of a cell's value in the heat map: white at zero, red above, blue below, by {@code |x| / scale}. */
    public RGB heatColor(double x) { return color(x, scale); }

    private void fill() {
        if (shown == null || table.isDisposed()) return;
        var session = shown.run().session();
        Optional<DenseTensor> now = session.values(shown.rank(), shown.tensorId());
        Optional<DenseTensor> reference = showsDifference() ? session.referenceValues(shown.rank(), shown.tensorId())
                : Optional.empty();
        problem = now.isEmpty() ? "not live on rank " + shown.rank() + " now (the run moved on)"
                : showsDifference() ? differenceProblem(session, reference.isPresent()) : null;
        if (problem != null) {
            cells = new double[0];
            rows = 0;
            columns = 0;
        } else {
            load(now.get(), reference);
        }
        setContentDescription(shown.name() + " on rank " + shown.rank() + " at stop " + shown.stop()
                + (problem != null ? ": " + problem : showsDifference() ? ", minus the reference" : "")
                + (problem == null && (rows == MAX_ROWS || columns == MAX_COLUMNS) ? " (its first " + rows + " x "
                + columns + ")" : ""));
        fillTable();
        heat.redraw();
    }

    /**
     * Why no difference is shown, or null: an allocation nothing has written yet says so as the Variables view does
     * (its zeros, or leftover memory on CUDA, minus the reference would look like a wrong value).
     */
    private String differenceProblem(DebugSession session, boolean hasReference) {
        if (!session.written(shown.rank(), shown.tensorId())) return "not written yet, nothing to compare";
        return hasReference ? null : "no reference for it (a tensor the lowering made)";
    }

    private void load(DenseTensor t, Optional<DenseTensor> reference) {
        long[] shape = t.shape();
        long last = shape.length == 0 ? 1 : shape[shape.length - 1];
        long leading = last == 0 ? 0 : t.toDoubleArray().length / last;
        double[] v = t.toDoubleArray();
        double[] r = reference.map(DenseTensor::toDoubleArray).orElse(null);
        columns = (int) Math.min(last, MAX_COLUMNS);
        rows = (int) Math.min(leading, MAX_ROWS);
        cells = new double[rows * columns];
        double max = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                int at = (int) (i * last + j);
                double x = r == null ? v[at] : v[at] - r[at];
                cells[i * columns + j] = x;
                if (Double.isFinite(x)) max = Math.max(max, Math.abs(x));
            }
        }
        scale = max == 0 ? 1 : max;
    }

    private void fillTable() {
        table.setRedraw(false);
        table.removeAll();
        for (TableColumn c : table.getColumns()) c.dispose();
        if (columns > 0) {
            new TableColumn(table, SWT.RIGHT).setText("");
            for (int j = 0; j < columns; j++) new TableColumn(table, SWT.RIGHT).setText(Integer.toString(j));
            for (int i = 0; i < rows; i++) {
                TableItem item = new TableItem(table, SWT.NONE);
                item.setText(0, Integer.toString(i));
                for (int j = 0; j < columns; j++) item.setText(j + 1, StopText.number(cells[i * columns + j]));
            }
            for (TableColumn c : table.getColumns()) c.pack();
        }
        table.setRedraw(true);
    }

    private void paint(GC gc, Rectangle area) {
        if (rows == 0 || columns == 0) return;
        int size = Math.max(1, Math.min((area.width - 8) / columns, (area.height - 8) / rows));
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                Color c = new Color(heatColor(cells[i * columns + j]));
                gc.setBackground(c);
                gc.fillRectangle(4 + j * size, 4 + i * size, size, size);
            }
        }
        gc.setForeground(heat.getDisplay().getSystemColor(SWT.COLOR_WIDGET_FOREGROUND));
        gc.drawRectangle(3, 3, columns * size + 1, rows * size + 1);
    }

    /**
     * Diverging: white at zero to full red at {@code +scale}, full blue at {@code -scale}; NaN and inf in black. A
     * value other than zero is never white: a tiny difference beside a large one still shows (a tenth of the way).
     */
    static RGB color(double x, double scale) {
        if (!Double.isFinite(x)) return new RGB(0, 0, 0);
        double t = x == 0 ? 0 : Math.max(0.1, Math.min(1, Math.abs(x) / scale));
        int fade = (int) Math.round(255 * (1 - t));
        return x >= 0 ? new RGB(255, fade, fade) : new RGB(fade, fade, 255);
    }

    @Override
    public void setFocus() { table.setFocus(); }
}
