package org.hostir.studio.exec.cuda;

import org.hostir.studio.exec.BackendStream;

/** A CUstream of one device; {@code index} is its timeline row. */
record CudaStream(int index, long handle) implements BackendStream {}
