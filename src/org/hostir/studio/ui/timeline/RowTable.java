package org.hostir.studio.ui.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;

/**
 * A table of the Timeline's analyses (kernels, critical path, comparison) as Perfetto's and Nsight Systems' tables
 * behave: a click on a column's header sorts by it (again: the other way), the arrow shows the order, and
 * selecting a row hands it to the view. The rows are immutable records of the trace analyses; the table only
 * orders and shows them.
 */
final class RowTable<R> {
    /**
     * One column: its title and width, its cells' text, and the order a click on its header sorts by (null: the
     * column does not sort); {@code firstDescending}: the first click puts the largest first (totals, shares).
     */
    record Column<R>(String title, int width, boolean right, Function<R, String> text, Comparator<R> order,
                     boolean firstDescending) {
    }

    private final Table table;
    private final List<Column<R>> columns;
    /** Orders the rows a column finds equal, whichever way it sorts (the name, as the engine's tables do). */
    private final Comparator<R> ties;
    private List<R> given = List.of();
    private List<R> shown = List.of();
    private int sortColumn = -1;
    private boolean ascending;

    RowTable(Composite parent, List<Column<R>> columns, Comparator<R> ties, Consumer<R> selected) {
        this.columns = List.copyOf(columns);
        this.ties = ties;
        table = new Table(parent, SWT.SINGLE | SWT.FULL_SELECTION | SWT.V_SCROLL | SWT.H_SCROLL);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        for (int i = 0; i < columns.size(); i++) {
            Column<R> c = columns.get(i);
            TableColumn column = new TableColumn(table, c.right() ? SWT.RIGHT : SWT.LEFT);
            column.setText(c.title());
            column.setWidth(c.width());
            int index = i;
            if (c.order() != null) column.addListener(SWT.Selection, e -> headerClicked(index));
        }
        table.addListener(SWT.Selection, e -> {
            int i = table.getSelectionIndex();
            if (i >= 0 && i < shown.size()) selected.accept(shown.get(i));
        });
    }

    Table control() { return table; }

    /** Shows {@code rows} in the order given, or in the column's order the user chose last. */
    void setRows(List<R> rows) {
        given = List.copyOf(rows);
        refill();
    }

    /** The rows in the order shown. */
    List<R> rows() { return shown; }

    /** The column the rows are sorted by (-1: as given) and whether ascending. */
    int sortColumn() { return sortColumn; }

    boolean ascending() { return ascending; }

    /** Sorts by {@code column}: the way it sorts first, the other way when it is the column sorted by already. */
    private void headerClicked(int column) {
        ascending = column == sortColumn ? !ascending : !columns.get(column).firstDescending();
        sortColumn = column;
        refill();
    }

    private void refill() {
        List<R> rows = new ArrayList<>(given);
        if (sortColumn >= 0) {
            Comparator<R> order = columns.get(sortColumn).order();
            rows.sort((ascending ? order : order.reversed()).thenComparing(ties));
        }
        shown = List.copyOf(rows);
        table.setRedraw(false);
        try {
            table.removeAll();
            for (R row : shown) {
                TableItem item = new TableItem(table, SWT.NONE);
                for (int i = 0; i < columns.size(); i++) item.setText(i, columns.get(i).text().apply(row));
            }
            table.setSortColumn(sortColumn < 0 ? null : table.getColumn(sortColumn));
            table.setSortDirection(sortColumn < 0 ? SWT.NONE : ascending ? SWT.UP : SWT.DOWN);
        } finally {
            table.setRedraw(true);
        }
    }
}
