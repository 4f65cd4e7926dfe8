package org.hostir.studio.exec;

import org.hostir.studio.ir.host.P2PCommunication;

/** One send or receive of a point-to-point transfer with {@code peer}. */
public record P2PCall(P2PCommunication.Type type, Buffer buffer, int peer) {}
