/**
 * The lowering view (pass inspector): every pass of the lowering pipeline per rank, the Host IR before and after
 * as a tree diff and a side-by-side text diff, provenance links to the fusion file, options re-lowered in a Job.
 * Its SWT-free model (pass entries and filters, before/after rows, provenance, snapshot text) is the subpackage
 * {@code model}. It follows fusion elements and Host IR nodes selected elsewhere through the selection service.
 */
package org.hostir.studio.ui.passes;
