package org.hostir.studio.ui;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;

/**
 * An inline find bar (Ctrl+F, as a browser's or Eclipse's inline find), for the graph's nodes and the Lowering view's
 * program tree: typing selects and reveals the first match, Enter the next (round), and the bar says which of how
 * many ("2 of 5", "not found"); Esc closes it and gives the keyboard back to what it searches. The parent lays it out
 * in a {@link GridLayout} and shows or hides it ({@link #setShown}).
 */
public final class FindBar<T> {
    public final Composite control;
    public final Text text;
    public final Label count;
    private final Function<String, List<T>> find;
    private final Consumer<T> reveal;
    private List<T> matches = List.of();
    private int current;

    /** {@code hint}: what to type (the field's message); {@code find} gives the matches of a text, best first. */
    public FindBar(Composite parent, String hint, Function<String, List<T>> find, Consumer<T> reveal, Runnable close) {
        this.find = find;
        this.reveal = reveal;
        control = new Composite(parent, SWT.NONE);
        GridLayout grid = new GridLayout(3, false);
        grid.marginHeight = 2;
        control.setLayout(grid);
        new Label(control, SWT.NONE).setText("Find:");
        text = new Text(control, SWT.BORDER | SWT.SINGLE);
        text.setMessage(hint);
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
        GridData layout = new GridData(SWT.FILL, SWT.TOP, true, false);
        layout.exclude = true;
        control.setLayoutData(layout);
        control.setVisible(false);
    }

    /** Shows or hides the bar in its parent's grid (hidden, it takes no room). */
    public void setShown(boolean shown) {
        control.setVisible(shown);
        ((GridData) control.getLayoutData()).exclude = !shown;
        control.getParent().layout(true);
    }

    /** Opens the bar with its text selected and searches again (what it searches may have changed). */
    public void open() {
        setShown(true);
        search();
        text.setFocus();
        text.selectAll();
    }

    /** Finds the text anew and shows the first match. */
    public void search() {
        matches = find.apply(text.getText());
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
