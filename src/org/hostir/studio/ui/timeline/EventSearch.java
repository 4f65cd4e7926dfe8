package org.hostir.studio.ui.timeline;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The timeline's event search box (Perfetto's omnibox for slices): the events whose name or kind contains the
 * text, in time order; typing selects the first, Enter the next, and the view scrolls to it.
 */
final class EventSearch {
    private final TimelineCanvas canvas;
    private final java.util.function.Supplier<Timeline> timeline;
    private final Text field;
    private final Label count;
    private List<TimelineEvent> matches = List.of();
    private int at = -1;

    EventSearch(Composite parent, TimelineCanvas canvas, java.util.function.Supplier<Timeline> timeline) {
        this.canvas = canvas;
        this.timeline = timeline;
        Composite row = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(3, false);
        layout.marginHeight = 1;
        row.setLayout(layout);
        row.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        new Label(row, SWT.NONE).setText("Find:");
        field = new Text(row, SWT.SEARCH | SWT.ICON_CANCEL | SWT.BORDER);
        field.setMessage("event name or kind (Enter: next)");
        field.setLayoutData(new GridData(260, SWT.DEFAULT));
        count = new Label(row, SWT.NONE);
        count.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        Runnable later = () -> { if (!field.isDisposed()) find(field.getText()); };
        field.addListener(SWT.Modify, e -> field.getDisplay().timerExec(150, later));
        field.addListener(SWT.DefaultSelection, e -> next());
    }

    Text field() { return field; }

    String countText() { return count.getText(); }

    /**
     * Empties the box for another run: its matches were the last run's events, and text kept from a run the person
     * no longer sees reads as a filter on this one (issue 35, "Find text carries over").
     */
    void clear() {
        matches = List.of();
        at = -1;
        if (!field.getText().isEmpty()) field.setText("");
        count.setText("");
    }

    /** Finds the events matching {@code text} and selects the first. */
    void find(String text) {
        String q = text.strip().toLowerCase(Locale.ROOT);
        Timeline t = timeline.get();
        matches = q.isEmpty() || t == null ? List.of() : t.events().stream()
                .filter(e -> e.name().toLowerCase(Locale.ROOT).contains(q) || e.kind().key().equals(q))
                .sorted(Comparator.comparingLong(TimelineEvent::startNs)).toList();
        at = -1;
        if (matches.isEmpty()) {
            count.setText(q.isEmpty() ? "" : "no event matches");
        } else {
            next();
        }
        count.getParent().layout(true);
    }

    /** Selects the next match (round to the first after the last) and scrolls to it. */
    void next() {
        if (matches.isEmpty()) return;
        at = (at + 1) % matches.size();
        TimelineEvent e = matches.get(at);
        canvas.reveal(e);
        canvas.select(e);
        count.setText((at + 1) + " of " + matches.size());
        count.getParent().layout(true);
    }
}
