package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.cli.Arguments;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.OptionType;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.Pipeline;
import org.junit.jupiter.api.Test;

/** The lowering options are declared once, by their passes; everything else is made from the declarations. */
class LoweringOptionDeclarationTest {

    @Test
    void everyDeclaredOptionHasALabelAndHelp() {
        assertFalse(LoweringOptions.DECLARED.isEmpty());
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            assertFalse(o.label().isBlank(), o.key() + " has no label");
            assertFalse(o.help().isBlank(), o.key() + " has no help text");
            assertTrue(o.key().matches("[a-z][A-Za-z0-9]*"), o.key() + ": a key is one camelCase word");
        }
    }

    @Test
    void everyOptionBelongsToThePassThatListsItAndKeysAreUnique() {
        Set<String> all = new HashSet<>();
        for (Pipeline pipeline : List.of(Pipeline.standard(), Pipeline.hostIrLowering(),
                Pipeline.multiDeviceExecutor())) {
            Set<String> keys = new HashSet<>();
            for (Pass p : pipeline.passes()) {
                for (LoweringOption<?> o : p.options()) {
                    assertEquals(p.name(), o.pass(), o.key() + " is listed by " + p.name());
                    assertTrue(keys.add(o.key()), o.key() + " declared twice");
                }
            }
            all.addAll(keys);
        }
        assertEquals(all, Set.copyOf(LoweringOptions.DEFAULTS.asMap().keySet()), "every generation's options");
    }

    /**
     * The printed order (run output, pass traces, the "known:" list) and spelling of the first release's options;
     * options added since print after them.
     */
    @Test
    void defaultsPrintAsBefore() {
        String printed = LoweringOptions.DEFAULTS.asMap().toString();
        String first = "{numberOfStreams=4, backend=nccl, allgather=p2p, offsetStreamIndexingByRank=false,"
                + " insertDeallocations=false, forwardLocalShard=false";
        assertTrue(printed.equals(first + "}") || printed.startsWith(first + ", "), printed);
    }

    @Test
    void parseOfAsMapRoundTripsEveryValueOfEveryOption() {
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            for (String text : valuesOf(o)) {
                LoweringOptions x = LoweringOptions.parse(Map.of(o.key(), text));
                assertEquals(text, x.asMap().get(o.key()), o.key());
                assertEquals(x, LoweringOptions.parse(x.asMap()), o.key() + "=" + text);
                assertEquals(x.asMap(), LoweringOptions.parse(x.asMap()).asMap());
            }
        }
        Map<String, String> allChanged = new LinkedHashMap<>();
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            List<String> values = valuesOf(o);
            allChanged.put(o.key(), values.get(values.size() - 1));
        }
        LoweringOptions x = LoweringOptions.parse(allChanged);
        assertEquals(x, LoweringOptions.parse(x.asMap()));
        assertEquals(LoweringOptions.DEFAULTS, LoweringOptions.parse(LoweringOptions.DEFAULTS.asMap()));
    }

    /** Each value an option takes, as text: a range's bounds and default, every choice, both flags. */
    private static List<String> valuesOf(LoweringOption<?> o) {
        return switch (o.type()) {
            case OptionType.IntRange r -> List.of(Integer.toString(r.min()), o.formattedDefault(),
                    Integer.toString(r.max()));
            case OptionType.Choice<?> c -> c.spellings();
            case OptionType.Flag f -> List.of("false", "true");
        };
    }

    @Test
    void badValuesKeepTheirMessages() {
        assertEquals("option numberOfStreams: expected an integer in 1..1024, got '0' [option]",
                message(Map.of("numberOfStreams", "0")));
        assertEquals("option numberOfStreams: expected an integer in 1..1024, got 'x' [option]",
                message(Map.of("numberOfStreams", " x ")));
        assertEquals("option allgather: unknown value 'ring'; the values are collective, p2p, broadcast [option]",
                message(Map.of("allgather", "ring")));
        assertEquals("option forwardLocalShard: expected true or false, got 'maybe' [option]",
                message(Map.of("forwardLocalShard", "maybe")));
        assertEquals("option streams: unknown option (known: " + String.join(", ",
                LoweringOptions.DEFAULTS.asMap().keySet()) + ") [option]", message(Map.of("streams", "2")));
        LoweringOptions lenient = LoweringOptions.parse(Map.of("backend", "CUDA", "insertDeallocations", "on",
                "forwardLocalShard", "1", "offsetStreamIndexingByRank", "OFF"));
        assertEquals("cuda", lenient.asMap().get("backend"));
        assertTrue(lenient.insertDeallocations() && lenient.forwardLocalShard());
        assertFalse(lenient.offsetStreamIndexingByRank());
    }

    private static String message(Map<String, String> pairs) {
        return assertThrows(LoweringException.class, () -> LoweringOptions.parse(pairs)).errors().get(0).format();
    }

    @Test
    void theCommandLineHelpListsEveryOptionWithItsValuesAndHelp() {
        String help = Arguments.loweringOptionHelp();
        for (LoweringOption<?> o : LoweringOptions.DECLARED) {
            assertTrue(help.contains("  " + o.key() + "=" + o.type().describe() + " (default "
                    + o.formattedDefault() + ", pass " + o.pass() + ")\n"), help);
            assertTrue(help.replaceAll("\n +", " ").contains(o.help()), o.help());
        }
        assertTrue(help.lines().allMatch(l -> l.length() <= 110), help);
        assertTrue(help.contains("allgather=collective|p2p|broadcast (default p2p"), help);
        assertTrue(help.contains("numberOfStreams=1..1024 (default 4"), help);
    }

    @Test
    void valuesAreTypedAndChecked() {
        var streams = LoweringOptions.DECLARED.get(0);
        assertEquals("numberOfStreams", streams.key());
        assertThrows(IllegalArgumentException.class, () -> streams.format("4"));
        assertThrows(IllegalArgumentException.class, () -> streams.format(0));
        assertEquals("7", streams.format(7));
        assertThrows(IllegalArgumentException.class,
                () -> LoweringOption.integer("n", 1, 4, 9, "N", "help", "P"), "the default lies in the range");
        List<String> keys = new ArrayList<>(LoweringOptions.DEFAULTS.asMap().keySet());
        assertEquals(keys, LoweringOptions.DECLARED.stream().map(LoweringOption::key).toList());
    }
}
