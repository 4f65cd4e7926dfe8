package org.hostir.studio.exec;

/** A point in a stream's work that another stream can wait for (a CUDA event). */
public interface BackendEvent {}
