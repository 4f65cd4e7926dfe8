package org.hostir.studio.exec;

/** An ordered queue of device work (a CUDA stream); {@code index} is its row on the timeline. */
public interface BackendStream {
    int index();
}
