/**
 * What a run's trace says about its speed, as HTA and Nsight Systems' recipes answer it: the dependency graph
 * across ranks and its critical path, idle time per stream by cause, the kernel table, two runs compared. Uses
 * only the {@code trace} model (and JGraphT).
 */
package org.hostir.studio.trace.analysis;
