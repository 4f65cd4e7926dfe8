package org.hostir.studio.exec.sim;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.Work;

/** An event recorded on a stream that had no work yet: waiting for it waits for nothing. */
enum NoWork implements BackendEvent, Work { INSTANCE }
