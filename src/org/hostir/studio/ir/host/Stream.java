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

    /**
     * The address nvFuser 2026-04 prints for a stream with no index ({@code hir::Stream::toString},
     * csrc/host_ir/ir.cpp:193-205 at 81c4b22fd, since #5746; the seeds printed its {@code name()}, a number): a
     * real one changes from run to run, so the Studio prints a stable one made from the stream's number, in a range
     * far from the addresses {@code lower.AssignStreamsPass} makes from node ids. Either is a name only.
     */
    static String addressOf(Fixed f) { return String.format("0x%x", FIXED_ADDRESS_BASE + 0x100L * f.number()); }

    /** Where {@link #addressOf} starts: above any node-id address (0x1000 + id). */
    long FIXED_ADDRESS_BASE = 0x7e000000L;
}
