/**
 * Reading nvFuser's {@code NVFUSER_DUMP=host_ir} text back into the Host IR tree that {@code ir.print} prints:
 * {@link org.hostir.studio.ir.parse.HostIrDumpReader} for one container (both dump generations of the seeds,
 * line breaks kept or collapsed), {@link org.hostir.studio.ir.parse.DumpLog} for a log holding many. Statements
 * it does not understand become {@link org.hostir.studio.ir.host.OpaqueNode}s with a warning, never dropped.
 */
package org.hostir.studio.ir.parse;
