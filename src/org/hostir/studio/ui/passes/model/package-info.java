/**
 * The lowering view's model, free of SWT: the pass list's entries and filters, the before/after rows of a pass,
 * provenance between Host IR nodes and fusion elements, and the snapshots as text. Tests use it directly.
 */
package org.hostir.studio.ui.passes.model;
