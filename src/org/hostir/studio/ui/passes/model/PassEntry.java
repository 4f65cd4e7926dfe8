package org.hostir.studio.ui.passes.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.lower.PassTrace;

/**
 * One row of the pass list: the step's index in the rank's trace, and the step. Which steps the list shows (the
 * "hide unchanged" toggle, the name filter) is decided here, apart from the table that shows them.
 */
public record PassEntry(int index, PassTrace.Step step) {
    /** The steps of {@code rank} whose pass name contains {@code filter} (any case; blank: all), in order. */
    public static List<PassEntry> visible(PassTrace.RankTrace rank, String filter, boolean hideUnchanged) {
        String f = filter.trim().toLowerCase(Locale.ROOT);
        List<PassEntry> out = new ArrayList<>();
        for (int i = 0; i < rank.steps().size(); i++) {
            PassTrace.Step s = rank.steps().get(i);
            if (hideUnchanged && !s.changed()) continue;
            if (!f.isEmpty() && !s.pass().toLowerCase(Locale.ROOT).contains(f)) continue;
            out.add(new PassEntry(i, s));
        }
        return out;
    }
}
