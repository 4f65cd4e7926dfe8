package org.hostir.studio.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Texts;

/**
 * The argument syntax all subcommands share: {@code --name value} or {@code --name=value} for options,
 * {@code --name} for flags, {@code --} to end options; everything else is positional. Each command says which
 * options (single-valued or repeatable) and flags it accepts; anything else is a usage error. {@code --help}
 * is always accepted. A flag in {@code valuedFlags} may also be given as {@code --name=value} (never
 * {@code --name value}, so a flag alone does not swallow the next argument): {@code --validate=full}.
 */
public record ArgumentParser(Set<String> single, Set<String> repeatable, Set<String> flagNames,
                             Set<String> valuedFlags) {
    public static final String HELP = "--help";

    public ArgumentParser {
        single = Set.copyOf(single);
        repeatable = Set.copyOf(repeatable);
        flagNames = Set.copyOf(flagNames);
        valuedFlags = Set.copyOf(valuedFlags);
    }

    public ArgumentParser(Set<String> single, Set<String> repeatable, Set<String> flagNames) {
        this(single, repeatable, flagNames, Set.of());
    }

    public Arguments parse(List<String> args) throws UsageException {
        List<String> positionals = new ArrayList<>();
        Map<String, List<String>> values = new LinkedHashMap<>();
        Set<String> flags = new HashSet<>();
        boolean optionsEnded = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!optionsEnded && lookalikeDash(arg)) {
                throw new UsageException("'" + Texts.printable(arg) + "' begins with a dash that is not the ASCII '-'"
                        + String.format(" (U+%04X): an option is typed '", (int) arg.charAt(0))
                        + Texts.printable(asciiDashes(arg)) + "'; a file of that name goes after --");
            }
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                positionals.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            if (arg.equals("-h")) arg = HELP;
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (flagNames.contains(name) || name.equals(HELP)) {
                if (eq > 0 && !valuedFlags.contains(name)) throw new UsageException(name + " takes no value");
                if (!flags.add(name) && !name.equals(HELP)) throw new UsageException(name + " given twice");
                if (eq > 0) values.computeIfAbsent(name, k -> new ArrayList<>()).add(arg.substring(eq + 1));
            } else if (single.contains(name) || repeatable.contains(name)) {
                String value;
                if (eq > 0) {
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException(name + " needs a value");
                }
                List<String> list = values.computeIfAbsent(name, k -> new ArrayList<>());
                if (single.contains(name) && !list.isEmpty()) throw new UsageException(name + " given twice");
                list.add(value);
            } else {
                throw new UsageException("unknown option '" + Texts.printable(name) + "'");
            }
        }
        return new Arguments(positionals, values, flags);
    }

    /** A dash other than ASCII's (a full-width, en or em dash, a minus sign): an option pasted from typeset text. */
    private static boolean isLookalikeDash(char c) {
        return c != '-' && (Character.getType(c) == Character.DASH_PUNCTUATION || c == '\u2212');
    }

    private static boolean lookalikeDash(String arg) { return !arg.isEmpty() && isLookalikeDash(arg.charAt(0)); }

    /** {@code arg} with its leading dashes made ASCII: the option that was meant. */
    private static String asciiDashes(String arg) {
        int n = 0;
        while (n < arg.length() && (arg.charAt(n) == '-' || isLookalikeDash(arg.charAt(n)))) n++;
        return "-".repeat(n) + arg.substring(n);
    }
}
