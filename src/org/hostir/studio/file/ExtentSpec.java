package org.hostir.studio.file;

import java.util.Objects;

/** An axis extent as a fusion file writes it: a symbol name ({@code "M"}) or a positive integer. */
public sealed interface ExtentSpec {

    record Symbol(String name) implements ExtentSpec {
        public Symbol {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() { return name; }
    }

    record Size(long value) implements ExtentSpec {
        @Override
        public String toString() { return Long.toString(value); }
    }

    static ExtentSpec symbol(String name) { return new Symbol(name); }

    static ExtentSpec size(long value) { return new Size(value); }
}
