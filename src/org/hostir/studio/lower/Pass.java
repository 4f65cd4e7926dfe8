package org.hostir.studio.lower;

import java.util.List;

/** One lowering step, a pure function from the program before it to the program after it, for one rank. */
public interface Pass {

    String name();

    Snapshot apply(Snapshot before, LoweringContext context);

    /** The options this pass declares (each with {@code pass} = {@link #name()}); none by default. */
    default List<LoweringOption<?>> options() { return List.of(); }
}
