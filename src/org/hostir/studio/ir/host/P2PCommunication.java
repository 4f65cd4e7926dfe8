package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/** One side of a point-to-point transfer: send {@code buffer} to {@code peer}, or receive into it. */
public record P2PCommunication(int id, Type type, TensorView buffer, Scalar peer, CommunicatorBackend backend)
        implements HostNode {
    public enum Type {
        SEND("send"), RECV("recv");

        private final String dumpName;

        Type(String dumpName) { this.dumpName = dumpName; }

        public String dumpName() { return dumpName; }
    }

    public P2PCommunication {
        Objects.requireNonNull(type);
        Objects.requireNonNull(buffer);
        Objects.requireNonNull(peer);
        Objects.requireNonNull(backend);
    }
}
