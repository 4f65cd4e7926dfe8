package org.hostir.studio.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.OutputFiles;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.file.Limits;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.ValidatePass;

/**
 * A parsed command line: positional arguments, option values (in order, per option) and flags, with typed
 * accessors for the options the subcommands share. Accessors throw {@link UsageException} on bad values.
 */
public record Arguments(List<String> positionals, Map<String, List<String>> values, Set<String> flags) {
    private static final Pattern SYMBOL = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ASCII_INTEGER = Pattern.compile("-?[0-9]+");

    public Arguments {
        positionals = List.copyOf(positionals);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        values.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        values = Collections.unmodifiableMap(copy);
        flags = Set.copyOf(flags);
    }

    public boolean flag(String name) { return flags.contains(name); }

    /** The value of a single-valued option. */
    public Optional<String> value(String option) {
        List<String> v = values.get(option);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v.getLast());
    }

    public List<String> all(String option) { return values.getOrDefault(option, List.of()); }

    /** {@code --devices N} if given, else what the file's meshes need ({@link Engine#defaultDevices}). */
    public int devicesFor(String file) throws UsageException {
        if (value("--devices").isPresent()) return devices();
        try {
            return Engine.defaultDevices(new FusionSource.File(Path.of(file), file));
        } catch (InvalidPathException e) {
            return devices();
        }
    }

    /** {@code --devices N}: 1 .. 16,384, default 2. */
    public int devices() throws UsageException {
        Optional<String> v = value("--devices");
        if (v.isEmpty()) return FusionBindings.DEFAULT_DEVICES;
        return (int) integer("--devices", v.get(), 1, Limits.MAX_DEVICES);
    }

    /** {@code --rank R}, checked against the device count. */
    public OptionalInt rank(int devices) throws UsageException {
        Optional<String> v = value("--rank");
        if (v.isEmpty()) return OptionalInt.empty();
        return OptionalInt.of((int) integer("--rank", v.get(), 0, devices - 1));
    }

    /** {@code --set SYM=N ...} as symbol values; D is refused (it is --devices), and so is a symbol set twice. */
    public Map<String, Long> symbols() throws UsageException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String s : all("--set")) {
            int eq = s.indexOf('=');
            if (eq <= 0) throw new UsageException("--set expects SYM=N, got '" + Texts.printable(s) + "'");
            String sym = s.substring(0, eq);
            if (!SYMBOL.matcher(sym).matches()) {
                throw new UsageException("--set: '" + Texts.printable(sym) + "' is not a symbol name");
            }
            if (sym.equals(FusionBindings.DEVICES_SYMBOL)) {
                throw new UsageException("--set: D is the number of devices; use --devices N");
            }
            long value = integer("--set " + sym, s.substring(eq + 1), 1, Limits.MAX_EXTENT);
            if (out.put(sym, value) != null) throw new UsageException("--set " + sym + " given twice");
        }
        return out;
    }

    /** How a command's usage names {@code --nvfuser} and its values. */
    public static final String NVFUSER_USAGE = "[" + RunCommandLine.NVFUSER + " " + ValidatePass.NVFUSER.type().describe()
            + "]";

    /** {@code --option KEY=VALUE ...} in order; a KEY given twice is refused (which one was meant?). */
    public Map<String, String> options() throws UsageException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String s : all("--option")) {
            int eq = s.indexOf('=');
            if (eq <= 0) throw new UsageException("--option expects KEY=VALUE, got '" + Texts.printable(s) + "'");
            String key = s.substring(0, eq);
            String value = s.substring(eq + 1);
            if (!value.equals(value.strip())) { // a quoting mistake, as for numbers
                throw new UsageException("--option " + Texts.printable(key) + ": '" + Texts.printable(value)
                        + "' has blanks around it");
            }
            if (out.put(key, value) != null) {
                throw new UsageException("--option " + Texts.printable(key) + " given twice");
            }
        }
        return out;
    }

    /** {@code --option KEY=VALUE ...} with {@code --nvfuser} as the option it spells, unparsed. */
    public Map<String, String> loweringOptionPairs() throws UsageException {
        Map<String, String> pairs = new LinkedHashMap<>(options());
        Optional<String> nvFuser = value(RunCommandLine.NVFUSER);
        if (nvFuser.isPresent() && pairs.put(ValidatePass.NVFUSER.key(), nvFuser.get()) != null) {
            throw new UsageException(RunCommandLine.NVFUSER + " and --option " + ValidatePass.NVFUSER.key()
                    + " both given");
        }
        return pairs;
    }

    /** {@code --option KEY=VALUE ...} as lowering options, then {@code overrides} (e.g. from {@code --streams}). */
    public LoweringOptions loweringOptions(Map<String, String> overrides) throws UsageException {
        Map<String, String> pairs = loweringOptionPairs();
        Optional<String> nvFuser = value(RunCommandLine.NVFUSER);
        pairs.putAll(overrides);
        try {
            return LoweringOptions.parse(pairs);
        } catch (LoweringException e) {
            LoweringError first = e.errors().get(0);
            String key = first.where().substring("option ".length());
            boolean flag = key.equals(ValidatePass.NVFUSER.key()) && nvFuser.isPresent();
            throw new UsageException((flag ? RunCommandLine.NVFUSER : "--option " + key) + ": " + first.message());
        }
    }

    /**
     * The {@code --option} part of a command's help: every lowering option the passes declare, with its values,
     * default, pass and help text.
     */
    public static String loweringOptionHelp() {
        StringBuilder b = new StringBuilder("lowering options (--option KEY=VALUE):\n");
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            b.append("  ").append(o.key()).append('=').append(o.type().describe()).append(" (default ")
                    .append(o.formattedDefault()).append(", pass ").append(o.pass()).append(")\n");
            wrap(o.help(), "      ", 110, b);
        }
        return b.toString();
    }

    /** {@code text} in lines of at most {@code width} characters (longer words alone), each after {@code indent}. */
    private static void wrap(String text, String indent, int width, StringBuilder b) {
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                b.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            if (line.length() > indent.length()) line.append(' ');
            line.append(word);
        }
        b.append(line).append('\n');
    }

    /**
     * {@code text}, the value of {@code option}, as a path to write; a usage error ending with the output policy's rule
     * when no path can be spelled so (a NUL).
     */
    static Path path(String option, String text) throws UsageException {
        return path(option, text, OutputFiles.RULE);
    }

    /** {@code text}, a file to read that {@code what} names, as a path; a usage error with {@code [file.read]}. */
    static Path input(String what, String text) throws UsageException {
        return path(what, text, Rule.FILE_READ.id());
    }

    private static Path path(String what, String text, String rule) throws UsageException {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new UsageException(what + ": '" + Texts.printable(text) + "' is not a valid path: " + e.getReason()
                    + " [" + rule + "]");
        }
    }

    /** Exactly one positional argument, the file to read, spelled as a path. */
    public String file() throws UsageException {
        if (positionals.isEmpty()) throw new UsageException("missing FILE.fusion");
        if (positionals.size() > 1) {
            throw new UsageException("unexpected argument '" + Texts.printable(positionals.get(1)) + "'");
        }
        input("FILE", positionals.getFirst());
        return positionals.getFirst();
    }

    /**
     * {@code text} as an integer in {@code min..max}: ASCII digits with an optional minus, nothing else (Java's
     * parser would also take {@code +8} and full-width or other scripts' digits; blanks are a quoting mistake).
     */
    static long integer(String option, String text, long min, long max) throws UsageException {
        if (!ASCII_INTEGER.matcher(text).matches()) {
            throw new UsageException(option + " expects an integer (ASCII digits 0-9), got '" + Texts.printable(text)
                    + "'");
        }
        if (min >= 0 && text.startsWith("-")) { // a count is digits without a sign: "-0" is not 0
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + text);
        }
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) { // digits that do not fit a long are a number out of range
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + text);
        }
        if (v < min || v > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }
}
