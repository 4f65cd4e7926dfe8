package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.Scalar;

/**
 * A CUDA stream as Host IR names it: {@code Stream 0} (a fixed key, the user's stream at entry) or
 * {@code Stream ( StreamIdx % numberOfStreams )} (a key computed at run time). Never an address.
 */
public sealed interface Stream {

    record Fixed(int number) implements Stream {}

    record Indexed(Scalar index) implements Stream {
        public Indexed {
            Objects.requireNonNull(index);
        }
    }

    Stream USER = new Fixed(0);
}
