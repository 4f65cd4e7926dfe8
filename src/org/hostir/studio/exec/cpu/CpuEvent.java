package org.hostir.studio.exec.cpu;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.Work;

/** A point in a stream: done once the stream has run {@code ticket} tasks. Also the handle of posted work. */
record CpuEvent(CpuStream stream, long ticket) implements BackendEvent, Work {}
