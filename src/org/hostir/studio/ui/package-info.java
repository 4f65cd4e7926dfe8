/** Eclipse user interface of Host IR Studio: the only layer that may import Eclipse, OSGi or SWT. */
package org.hostir.studio.ui;
