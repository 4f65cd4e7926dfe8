/**
 * The timeline view: a run's {@code Timeline} (or a Chrome trace) as one row per rank and stream, painted with
 * plain SWT on a canvas that culls what is off screen; the rows model ({@link TimelineRows}) knows nothing of SWT.
 */
package org.hostir.studio.ui.timeline;
