package org.hostir.studio.exec.cuda;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.Work;

/** A recorded CUevent: what {@code Synchronize} and {@code Wait} make a stream wait for. */
record CudaEvent(long handle) implements BackendEvent, Work {}
