/**
 * The lowering view (pass inspector): every pass of the lowering pipeline per rank, the Host IR before and after
 * as a tree diff and a side-by-side text diff, provenance links to the fusion file, options re-lowered in a Job.
 */
package org.hostir.studio.ui.passes;
