package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

import org.hostir.studio.cli.ArgumentParser;
import org.hostir.studio.cli.Arguments;
import org.hostir.studio.cli.UsageException;
import org.junit.jupiter.api.Test;

/** The argument syntax shared by the subcommands. */
class ArgumentParserTest {
    static final ArgumentParser LOWER = new ArgumentParser(Set.of("--devices", "--rank"), Set.of("--set", "--option"),
            Set.of("--passes", "--diff", "--json"));

    private static Arguments parse(String... args) throws UsageException { return LOWER.parse(List.of(args)); }

    private static String usageError(String... args) {
        return assertThrows(UsageException.class, () -> {
            Arguments a = parse(args);
            a.devices();
            a.symbols();
            a.options();
            a.rank(a.devices());
            a.file();
        }).getMessage();
    }

    @Test
    void parsesOptionsFlagsAndPositionals() throws UsageException {
        Arguments a = parse("f.fusion", "--devices=4", "--set", "M=64", "--set=K=32", "--passes", "--rank", "3",
                "--option", "offsetStreamIndexingByRank=true", "--option", "x=");
        assertEquals("f.fusion", a.file());
        assertEquals(4, a.devices());
        assertEquals(Map.of("M", 64L, "K", 32L), a.symbols());
        assertEquals(List.of("M", "K"), List.copyOf(a.symbols().keySet()));
        assertEquals(OptionalInt.of(3), a.rank(4));
        assertEquals(Map.of("offsetStreamIndexingByRank", "true", "x", ""), a.options());
        assertTrue(a.flag("--passes"));
        assertFalse(a.flag("--diff"));
    }

    @Test
    void defaults() throws UsageException {
        Arguments a = parse("f.fusion");
        assertEquals(2, a.devices());
        assertEquals(Map.of(), a.symbols());
        assertEquals(OptionalInt.empty(), a.rank(2));
        assertEquals(Map.of(), a.options());
    }

    @Test
    void doubleDashEndsOptions() throws UsageException {
        assertEquals(List.of("--weird.fusion"), parse("--", "--weird.fusion").positionals());
    }

    @Test
    void badUsage() {
        assertEquals("unknown option '--colour'", usageError("f", "--colour", "red"));
        assertEquals("--devices needs a value", usageError("f", "--devices"));
        assertEquals("--devices given twice", usageError("f", "--devices", "2", "--devices", "4"));
        assertEquals("--devices expects an integer (ASCII digits 0-9), got 'two'", usageError("f", "--devices", "two"));
        assertEquals("--devices must be between 1 and 16384, got 20000", usageError("f", "--devices", "20000"));
        assertEquals("--rank must be between 0 and 1, got 2", usageError("f", "--rank", "2"));
        assertEquals("--set expects SYM=N, got 'M'", usageError("f", "--set", "M"));
        assertEquals("--set: '1M' is not a symbol name", usageError("f", "--set", "1M=2"));
        assertEquals("--set M must be between 1 and 1099511627776, got 0", usageError("f", "--set", "M=0"));
        assertEquals("--option expects KEY=VALUE, got '=x'", usageError("f", "--option", "=x"));
        assertEquals("--passes takes no value", usageError("f", "--passes=yes"));
        assertEquals("missing FILE.fusion", usageError());
    }

    /** Issue 31: numbers are ASCII digits, and nothing the user gives twice is silently half-ignored. */
    @Test
    void numbersAreAsciiDigitsAndNothingIsGivenTwice() {
        for (String n : List.of("\uff11\uff12", "+8", "  8", "8 ", "\u0668", "0x10", "1e3", "")) {
            assertEquals("--set M expects an integer (ASCII digits 0-9), got '" + n + "'", usageError("f", "--set",
                    "M=" + n), n);
            assertEquals("--devices expects an integer (ASCII digits 0-9), got '" + n + "'",
                    usageError("f", "--devices", n), n);
        }
        assertEquals("--set M given twice", usageError("f", "--set", "M=8", "--set", "M=16"));
        assertEquals("--set M given twice", usageError("f", "--set", "M=8", "--set=M=8"));
        assertEquals("--option x given twice", usageError("f", "--option", "x=1", "--option", "x=2"));
        assertEquals("--passes given twice", usageError("f", "--passes", "--passes"));
        assertEquals("--devices given twice", usageError("f", "--devices=2", "--devices", "4"));
        assertEquals("--set expects SYM=N, got 'M\\u001b[2J'", usageError("f", "--set", "M\u001b[2J"));
        assertEquals("unknown option '--\\u001b]0;x\\u0007'", usageError("f", "--\u001b]0;x\u0007"));
        assertEquals("unexpected argument 'b\\u001b[2J'", usageError("a", "b\u001b[2J"));
        assertEquals("--option numberOfStreams: ' 8' has blanks around it", usageError("f", "--option",
                "numberOfStreams= 8"));
    }

    @Test
    void differentSymbolsAndKeysMayEachBeGivenOnce() throws UsageException {
        Arguments a = parse("f", "--set", "M=8", "--set", "N=16", "--option", "x=1", "--option", "y=2");
        assertEquals(Map.of("M", 8L, "N", 16L), a.symbols());
        assertEquals(Map.of("x", "1", "y", "2"), a.options());
    }

    /** Lowering options that take numbers read ASCII digits too (Integer.parseInt would take "+8" and "１２"). */
    @Test
    void integerLoweringOptionsAreAsciiDigits() throws UsageException {
        for (String n : List.of("+8", "\uff18", "0x8")) {
            UsageException e = assertThrows(UsageException.class, () -> parse("f", "--option", "numberOfStreams=" + n)
                    .loweringOptions(Map.of()));
            assertEquals("--option numberOfStreams: expected an integer in 1..1024, got '" + n + "'", e.getMessage());
        }
        assertEquals("8", parse("f", "--option", "numberOfStreams=8").loweringOptions(Map.of()).asMap()
                .get("numberOfStreams"));
    }

    @Test
    void aMinusSignMakesANumberOutOfRangeNotANonNumber() {
        assertEquals("--rank must be between 0 and 1, got -3", usageError("f", "--rank", "-3"));
        // issue 31: a count is digits without a sign, so "-0" is not 0
        assertEquals("--rank must be between 0 and 1, got -0", usageError("f", "--rank", "-0"));
        assertEquals("--devices must be between 1 and 16384, got -0", usageError("f", "--devices", "-0"));
    }

    /** Issue 31: an option pasted from typeset text (full-width, en or em dashes, a minus sign) says so. */
    @Test
    void anOptionWithADashThatIsNotAsciiIsRefusedWithTheSpellingMeant() throws UsageException {
        assertEquals("'\uff0d\uff0ddevices' begins with a dash that is not the ASCII '-' (U+FF0D): an option is typed"
                + " '--devices'; a file of that name goes after --", usageError("f", "\uff0d\uff0ddevices", "2"));
        for (String dash : List.of("\u2013", "\u2014", "\u2212")) {
            assertTrue(usageError("f", dash + "devices", "2").contains("an option is typed '-devices'"), dash);
        }
        assertEquals(List.of("f", "\u2014x"), parse("f", "--", "\u2014x").positionals());
    }

    /** Issue 31: a path holding NUL is refused as one, with the rule of a file read, by every command's FILE. */
    @Test
    void aFileWithNulIsNotAValidPath() {
        assertEquals("FILE: 'a\\u0000.fusion' is not a valid path: Nul character not allowed [file.read]",
                usageError("a\u0000.fusion"));
    }
}
