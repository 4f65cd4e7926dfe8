/**
 * The timeline view's model, free of SWT: the rows and lanes a timeline is painted from, the ruler's steps and
 * labels, a bar's details and the summary below the bars. Tests use it directly.
 */
package org.hostir.studio.ui.timeline.model;
