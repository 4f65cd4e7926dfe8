package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.Scalar;

/**
 * A CUDA stream as Host IR names it: {@code Stream 0} (a fixed key, the user's stream at entry),
 * {@code Stream ( StreamIdx % numberOfStreams )} or {@code Stream i535} (a key computed at run time), or, in
 * nvFuser's newer dumps, {@code Stream 0x174e5c80}: a stream with no index, which nvFuser names by its address
 * (hir::Stream::toString, csrc/host_ir/ir.cpp:193-205 at 81c4b22fd). The address is only a name here: two
 * programs that differ only in addresses are equal modulo numbering ({@code diff.Canonical}).
 */
public sealed interface Stream {

    record Fixed(int number) implements Stream {}

    /** A stream named by an address, as printed ({@code 0x174e5c80}); a key like {@link Fixed}'s. */
    record Pointer(String address) implements Stream {
        public Pointer {
            if (address == null || !address.matches("0x[0-9a-fA-F]{1,16}")) {
                throw new IllegalArgumentException("a stream address is 0x and 1 to 16 hex digits: " + address);
            }
        }
    }

    record Indexed(Scalar index) implements Stream {
        public Indexed {
            Objects.requireNonNull(index);
        }
    }

    Stream USER = new Fixed(0);
}
