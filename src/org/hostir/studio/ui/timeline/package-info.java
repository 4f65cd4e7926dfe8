/**
 * The timeline view: a run's {@code Timeline} (or a Chrome trace) as one row per rank and stream, painted with
 * plain SWT on a canvas that culls what is off screen; its model (subpackage {@code model}: rows and lanes,
 * ruler, details, summary) knows nothing of SWT. A selected bar goes out as a {@code HostIrNodeElement} through the
 * selection service; nothing here knows the lowering view.
 */
package org.hostir.studio.ui.timeline;
