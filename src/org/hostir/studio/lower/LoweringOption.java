package org.hostir.studio.lower;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One knob of the lowering, declared once next to the pass that reads it (MLIR's {@code Option<>}): the
 * {@code --option} key, the value type, the default, a short label for the Studio's controls, a sentence of help
 * for {@code --help} and tooltips, and the pass it belongs to. A pass lists its options in {@link Pass#options()};
 * {@link Pipeline#options()} collects them, and {@link LoweringOptions} parses, prints and holds their values.
 *
 * @param pass the name of the pass that reads it ({@link Pass#name()})
 */
public record LoweringOption<T>(String key, OptionType<T> type, T defaultValue, String label, String help,
                                String pass) {
    public LoweringOption {
        Objects.requireNonNull(key);
        Objects.requireNonNull(type);
        Objects.requireNonNull(defaultValue);
        Objects.requireNonNull(label);
        Objects.requireNonNull(help);
        Objects.requireNonNull(pass);
        if (!type.valueClass().isInstance(defaultValue) || !type.accepts(defaultValue)) {
            throw new IllegalArgumentException(key + ": default " + defaultValue + " is not a value of its type");
        }
    }

    public static LoweringOption<Integer> integer(String key, int min, int max, int defaultValue, String label,
                                                  String help, String pass) {
        return new LoweringOption<>(key, new OptionType.IntRange(min, max), defaultValue, label, help, pass);
    }

    public static <E extends Enum<E>> LoweringOption<E> choice(String key, E defaultValue, String label, String help,
                                                              String pass) {
        return new LoweringOption<>(key, new OptionType.Choice<>(defaultValue.getDeclaringClass()), defaultValue,
                label, help, pass);
    }

    /** A choice among {@code values}, each spelled as {@code spelling} says. */
    public static <E extends Enum<E>> LoweringOption<E> choice(String key, E defaultValue, List<E> values,
                                                              Function<E, String> spelling, String label,
                                                              String help, String pass) {
        return new LoweringOption<>(key, new OptionType.Choice<>(defaultValue.getDeclaringClass(), values, spelling),
                defaultValue, label, help, pass);
    }

    public static LoweringOption<Boolean> flag(String key, boolean defaultValue, String label, String help,
                                               String pass) {
        return new LoweringOption<>(key, new OptionType.Flag(), defaultValue, label, help, pass);
    }

    /** {@code text} as a value of this option (surrounding blanks ignored); a bad one is a LoweringException. */
    public T parse(String text) { return type.parse(key, text.trim()); }

    /** {@code value}, which must be of this option's type, as {@code --option} text. */
    public String format(Object value) { return type.format(cast(value)); }

    /** The default as {@code --option} text. */
    public String formattedDefault() { return type.format(defaultValue); }

    /** {@code value} as this option's type; IllegalArgumentException when it is of another type or out of range. */
    T cast(Object value) {
        if (!type.valueClass().isInstance(value)) {
            throw new IllegalArgumentException(key + " takes a " + type.valueClass().getSimpleName() + ", not "
                    + value);
        }
        T v = type.valueClass().cast(value);
        if (!type.accepts(v)) throw new IllegalArgumentException(key + " must be in " + type.describe());
        return v;
    }
}
