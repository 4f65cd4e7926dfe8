/** The hirstudio command line (check, lower, run, bench) over the engine; no Eclipse or SWT imports. */
package org.hostir.studio.cli;
