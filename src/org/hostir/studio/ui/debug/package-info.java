/**
 * The Host IR debugger in Eclipse's debug model: a "Host IR Program" launched in debug mode is a {@link
 * org.hostir.studio.ui.debug.RunTarget} (the run) with one {@link org.hostir.studio.ui.debug.RankThread} per rank,
 * whose stack frames are the node it is held before and the loops around it; breakpoints are markers on the
 * fusion file naming a node of the final program ({@link org.hostir.studio.ui.debug.NodeBreakpoint}). The stepping
 * itself is the engine's ({@code exec.debug}); this package only presents it and sends the commands.
 */
package org.hostir.studio.ui.debug;
