package org.hostir.studio.lower;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The value type of a {@link LoweringOption}: how its {@code --option KEY=VALUE} text parses and prints, and which
 * values it takes (for help text and for the controls the Studio builds). A bad value is a {@link LoweringException}
 * on subject {@code option KEY}, rule {@code option}, as every front end reports it.
 */
public sealed interface OptionType<T> {

    /** {@code text} (already trimmed) as a value; throws {@link LoweringException} when it is not one. */
    T parse(String key, String text);

    /** The spelling {@link #parse} reads back, as {@code LoweringOptions.asMap} prints it. */
    String format(T value);

    /** The values for help text: {@code 1..1024}, {@code p2p|broadcast|collective}, {@code true|false}. */
    String describe();

    /** The Java type of the values, for checking a value handed in as an {@code Object}. */
    Class<T> valueClass();

    /** Whether {@code value} is one of this type's values (a range's bounds, say). */
    default boolean accepts(T value) { return true; }

    /** A whole number in {@code min..max}. */
    record IntRange(int min, int max) implements OptionType<Integer> {
        public IntRange {
            if (min > max) throw new IllegalArgumentException("empty range " + min + ".." + max);
        }

        public Integer parse(String key, String text) {
            // ASCII digits only: Integer.parseInt would also take "+8" and other scripts' digits
            if (text.matches("-?[0-9]{1,10}")) {
                long n = Long.parseLong(text);
                if (n >= min && n <= max) return (int) n;
            }
            throw bad(key, "expected an integer in " + describe() + ", got '" + text + "'");
        }

        public String format(Integer value) { return Integer.toString(value); }

        public String describe() { return min + ".." + max; }

        public Class<Integer> valueClass() { return Integer.class; }

        @Override
        public boolean accepts(Integer value) { return value >= min && value <= max; }
    }

    /**
     * One of some constants of an enum, read in any case: every constant spelled in lower case (or as its
     * {@code toString()} where the enum spells it otherwise, nvFuser's {@code Tma}), or the ones given with their
     * own spelling ({@code --nvfuser 2026-04}: an enum constant cannot be spelled so).
     */
    record Choice<E extends Enum<E>>(Class<E> type, List<E> values, Function<E, String> spelling)
            implements OptionType<E> {
        public Choice {
            values = List.copyOf(values);
            if (values.isEmpty()) throw new IllegalArgumentException("a choice of no values");
        }

        public Choice(Class<E> type) {
            this(type, List.of(type.getEnumConstants()),
                    c -> c.toString().equals(c.name()) ? c.name().toLowerCase(Locale.ROOT) : c.toString());
        }

        public E parse(String key, String text) {
            for (E c : values) {
                if (c.name().equalsIgnoreCase(text) || spelling.apply(c).equalsIgnoreCase(text)) return c;
            }
            throw bad(key, "unknown value '" + text + "'; the values are " + String.join(", ", spellings()));
        }

        public String format(E value) { return spelling.apply(value); }

        public String describe() { return String.join("|", spellings()); }

        public Class<E> valueClass() { return type; }

        @Override
        public boolean accepts(E value) { return values.contains(value); }

        /** Every value as {@link #format} spells it, in declaration order. */
        public List<String> spellings() { return values.stream().map(this::format).toList(); }
    }

    /** On or off: {@code true|on|1} and {@code false|off|0}, printed {@code true}/{@code false}. */
    record Flag() implements OptionType<Boolean> {
        public Boolean parse(String key, String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "on", "1" -> true;
                case "false", "off", "0" -> false;
                default -> throw bad(key, "expected true or false, got '" + text + "'");
            };
        }

        public String format(Boolean value) { return Boolean.toString(value); }

        public String describe() { return "true|false"; }

        public Class<Boolean> valueClass() { return Boolean.class; }
    }

    /** The one error shape of a bad option, so the CLI and the Studio report it alike. */
    private static LoweringException bad(String key, String what) {
        return new LoweringException("option " + key, "option", what);
    }
}
