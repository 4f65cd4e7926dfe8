/** Host IR: the per-rank host program (allocations, loops, streams, communications) as immutable records. */
package org.hostir.studio.ir.host;
