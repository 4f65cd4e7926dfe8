package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

/** The input of one pipeline run and, per pass, its name and the program after it (the pass inspector's data). */
public final class SnapshotCollection implements PassInstrumentation {
    private Snapshot input;
    private final List<String> passes = new ArrayList<>();
    private final List<Snapshot> after = new ArrayList<>();

    @Override
    public void beforePipeline(Snapshot input, LoweringContext context) { this.input = input; }

    @Override
    public void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext context) {
        passes.add(pass.name());
        this.after.add(after);
    }

    public Snapshot input() { return input; }

    /** The names of the passes that completed, in order. */
    public List<String> passes() { return List.copyOf(passes); }

    /** The snapshot after each pass that completed, in order. */
    public List<Snapshot> after() { return List.copyOf(after); }
}
