package org.hostir.studio.lower;

/** One lowering step, a pure function from the program before it to the program after it, for one rank. */
public interface Pass {

    String name();

    Snapshot apply(Snapshot before, LoweringContext context);
}
