package org.hostir.studio.ui.editor;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.GraphSearch;

/**
 * The graph's find bar (Ctrl+F on the graph page, as a browser's or Eclipse's inline find): typing selects and
 * reveals the first tensor or op whose name matches ({@link GraphSearch}), Enter the next (round);
 * Esc closes it and gives the keyboard back to the graph.
 */
final class FindBar {
    static final String HINT = "tensor or op name";

    final Composite control;
    final Text text;
    final Label count;
    private final Supplier<GraphElements> graph;
    private final Consumer<String> reveal;
    private final Runnable close;
    private List<String> matches = List.of();
    private int current;

    FindBar(Composite parent, Supplier<GraphElements> graph, Consumer<String> reveal, Runnable close) {
        this.graph = graph;
        this.reveal = reveal;
        this.close = close;
        control = new Composite(parent, SWT.NONE);
        GridLayout grid = new GridLayout(3, false);
        grid.marginHeight = 2;
        control.setLayout(grid);
        new Label(control, SWT.NONE).setText("Find:");
        text = new Text(control, SWT.BORDER | SWT.SINGLE);
        text.setMessage(HINT);
        GridData td = new GridData(SWT.LEFT, SWT.CENTER, false, false);
        td.widthHint = 220;
        text.setLayoutData(td);
        count = new Label(control, SWT.NONE);
        count.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        text.addListener(SWT.Modify, e -> search());
        text.addListener(SWT.DefaultSelection, e -> step(1));
        text.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE) {
                e.doit = false;
                e.detail = SWT.TRAVERSE_NONE;
                close.run();
            }
        });
    }

    /** Finds the text anew (the graph may have changed) and shows the first match. */
    void search() {
        matches = GraphSearch.find(graph.get(), text.getText());
        current = 0;
        show();
    }

    private void step(int by) {
        if (matches.isEmpty()) return;
        current = Math.floorMod(current + by, matches.size());
        show();
    }

    private void show() {
        if (text.getText().isBlank()) count.setText("");
        else if (matches.isEmpty()) count.setText("not found");
        else count.setText((current + 1) + " of " + matches.size());
        count.getParent().layout();
        if (!matches.isEmpty()) reveal.accept(matches.get(current));
    }
}
