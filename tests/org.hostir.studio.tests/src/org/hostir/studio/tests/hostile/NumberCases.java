package org.hostir.studio.tests.hostile;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Hostile numbers for every numeric flag of every command and for {@code --set} (issue 31 item 6: full-width
 * digits, {@code +8} and {@code '  8'} were accepted): only ASCII digits within the flag's range are a number; a
 * sign, a space, another script's digits, a fraction, hex, an overflow, zero or a negative below the range are
 * refused naming the flag. Each value is given as {@code --flag V} and as {@code --flag=V}.
 */
final class NumberCases {
    private NumberCases() {}

    /** A numeric flag of one command: {@code valid} is a small value it must accept. */
    record Flag(String command, String flag, long min, long max, long valid) {}

    static final List<Flag> FLAGS = List.of(new Flag("check", "--devices", 1, 16384, 2),
            new Flag("lower", "--devices", 1, 16384, 2), new Flag("lower", "--rank", 0, 1, 1),
            new Flag("export --python", "--devices", 1, 16384, 2), new Flag("export --cpp", "--devices", 1, 16384, 2),
            new Flag("diff", "--devices", 1, 16384, 2), new Flag("diff", "--rank", 0, 1, 1),
            new Flag("diff dump", "--program-a", 1, 1, 1), new Flag("diff dumps", "--program-b", 1, 1, 1),
            new Flag("dump", "--program", 1, 1, 1), new Flag("run", "--devices", 1, 16384, 2),
            new Flag("run", "--streams", 1, 1024, 4), new Flag("run", "--iterations", 1, 100_000, 1),
            new Flag("run", "--warmup", 0, 100_000, 0), new Flag("run", "--seed", 0, Long.MAX_VALUE, 7),
            new Flag("run", "--timeout", 1, 86_400, 20), new Flag("run sim", "--devices", 1, 16384, 2),
            new Flag("sweep", "--devices", 1, 16384, 2));

    /** The spellings every flag sees in CI (the others are sampled): the issue's, and the range's ends. */
    private static final Set<String> CORE = Set.of("+2", " 2", "\uff12", "-2", "", "+4", " 4",
            "\uff14", "-4", "99999999999999999999", "2", "4", "1", "0");

    /** Spellings of a number, and numbers past a range. */
    static List<String> values(Flag f) {
        String v = Long.toString(f.valid());
        List<String> out = new ArrayList<>(List.of(v, "+" + v, " " + v, v + " ", "\t" + v, v + "\n", fullWidth(v),
                arabicIndic(v), v + ".0", v + "e0", "0x" + v, "-" + v, "", "two", "0" + v, v + "_0",
                "99999999999999999999", "9223372036854775808", "-9223372036854775809", "1e400", "NaN"));
        out.add(Long.toString(f.min()));
        if (f.min() > Long.MIN_VALUE) out.add(Long.toString(f.min() - 1));
        if (f.max() < Long.MAX_VALUE) out.add(Long.toString(f.max() + 1));
        return out;
    }

    /** Only ASCII digits within the range are a number; leading zeros may go either way. */
    static Expect expect(String value, long min, long max) {
        if (!value.matches("[0-9]+")) return Expect.REFUSE;
        if (value.length() > 19) return Expect.REFUSE;
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            return Expect.REFUSE;
        }
        if (v < min || v > max) return Expect.REFUSE;
        return value.length() > 1 && value.startsWith("0") ? Expect.EITHER : Expect.ACCEPT;
    }

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Flag f : FLAGS) {
            for (String value : values(f)) {
                for (boolean joined : new boolean[] {false, true}) {
                    List<String> given = joined ? List.of(f.flag() + "=" + value) : List.of(f.flag(), value);
                    HostileCase c = CommandLines.on(f.command(), "numbers", f.flag() + (joined ? "=" : " ")
                            + Terminal.shown(value), expect(value, f.min(), f.max()), given, f.flag());
                    cases.add(joined || !CORE.contains(value) ? c.asHeavy() : c); // sampled in CI

                }
            }
        }
        for (String command : List.of("check", "lower", "export --cpp", "diff", "run", "sweep")) {
            for (String value : values(new Flag(command, "--set M", 1, 1L << 40, 4))) {
                HostileCase c = CommandLines.on(command, "numbers", "--set M=" + Terminal.shown(value),
                        expect(value, 1, 1L << 40), List.of("--set", "M=" + value), "M");
                cases.add(CORE.contains(value) || command.equals("check") ? c : c.asHeavy());
            }
        }
        return cases;
    }

    static String fullWidth(String digits) { return shift(digits, '\uff10'); }

    static String arabicIndic(String digits) { return shift(digits, '\u0660'); }

    private static String shift(String digits, char zero) {
        StringBuilder b = new StringBuilder();
        for (char ch : digits.toCharArray()) b.append((char) (zero + (ch - '0')));
        return b.toString();
    }
}
