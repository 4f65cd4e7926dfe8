package org.hostir.studio.exec;

import org.hostir.studio.ir.host.ForLoop;

/**
 * One enclosing loop of the node a rank is about to issue: the loop, the iteration it is in and its bounds as
 * evaluated on this rank ({@code index} runs from {@code start} while below {@code stop}).
 */
public record LoopFrame(ForLoop loop, long index, long start, long stop) {}
