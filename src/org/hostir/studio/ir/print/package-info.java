/** Printer of fusion and Host IR in nvFuser's dump format. */
package org.hostir.studio.ir.print;
