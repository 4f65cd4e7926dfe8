package org.hostir.studio.exec;

/** A posted communication or coalesced group, which a stream can wait for ({@code Wait} in Host IR). */
public interface Work {}
