package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.HostPass;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * What a new pass with an option needs: the pass declares it and the pipeline lists the pass; parsing, printing
 * and reading the value come from the declaration.
 */
class NewPassOptionTest {

    /** A pass that only records the value of its option. */
    static final class CountingPass implements HostPass {
        static final LoweringOption<Integer> UNROLL = LoweringOption.integer("unroll", 1, 8, 2, "Unroll",
                "how many iterations a loop body holds", "Counting");
        final List<Integer> seen = new ArrayList<>();

        public String name() { return "Counting"; }

        @Override
        public List<LoweringOption<?>> options() { return List.of(UNROLL); }

        public HostIrContainer run(HostIrContainer program, LoweringContext context) {
            seen.add(context.options().get(UNROLL));
            return program;
        }
    }

    @Test
    void aPassDeclaresItsOptionAndReadsItsValue() {
        CountingPass counting = new CountingPass();
        List<Pass> passes = new ArrayList<>(Pipeline.standard().passes());
        passes.add(counting);
        Pipeline pipeline = new Pipeline(passes);
        List<LoweringOption<?>> declared = pipeline.options();
        assertEquals(CountingPass.UNROLL, declared.get(declared.size() - 1), "new options print after the others");

        LoweringOptions options = LoweringOptions.parse(declared, Map.of("unroll", "4", "numberOfStreams", "2"));
        assertEquals("2", options.asMap().get("numberOfStreams"));
        assertEquals("unroll=4}", options.asMap().toString().substring(options.asMap().toString().length() - 9));
        assertEquals(options, LoweringOptions.parse(declared, options.asMap()));
        pipeline.lower(TestFusions.agMatmulP2p(2), new LoweringContext(0, 2, options));
        pipeline.lower(TestFusions.agMatmulP2p(2), new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
        assertEquals(List.of(4, 2), counting.seen, "the value given, else the declared default");

        var e = assertThrows(LoweringException.class, () -> LoweringOptions.parse(declared, Map.of("unroll", "9")));
        assertEquals("option unroll: expected an integer in 1..8, got '9' [option]", e.errors().get(0).format());
        assertEquals(8, options.with(CountingPass.UNROLL, 8).get(CountingPass.UNROLL));
    }

    @Test
    void twoPassesCannotDeclareOneKey() {
        Pipeline twice = new Pipeline(List.of(new CountingPass(), new CountingPass()));
        assertThrows(IllegalStateException.class, twice::options);
    }
}
