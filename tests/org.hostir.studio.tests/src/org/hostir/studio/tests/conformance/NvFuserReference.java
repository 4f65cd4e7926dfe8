package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.TestPaths;

/**
 * A program nvFuser printed, quoted in examples/conformance/NAME.reference, beside the lowering of its port,
 * NAME.fusion: the set-up the tests comparing the two share.
 */
record NvFuserReference(String name) {
    /** The quote's one program, asserted to read. */
    HostIrContainer quoted() throws Exception {
        String quote = Files.readString(TestPaths.repo("examples", "conformance", name + ".reference"));
        List<LogProgram> read = Engine.readDumps(quote, name + ".reference");
        assertEquals(1, read.size());
        assertTrue(read.getFirst().readable(), "the quote reads: " + read.getFirst().error());
        return read.getFirst().dump().program();
    }

    /** Rank 0's program of the port on {@code devices} devices with {@code options}. */
    HostIrContainer lowered(int devices, Map<String, String> options) throws Exception {
        String text = Files.readString(TestPaths.repo("examples", "conformance", name + ".fusion"));
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, name + ".fusion"), devices, Map.of());
        return Engine.lowerRank(loaded, LoweringOptions.parse(options), 0);
    }

    /** Each node's kind, a loop's followed by its body's; Deallocates kept only {@code withFrees}. */
    static List<String> kinds(List<HostNode> nodes, boolean withFrees) {
        List<String> out = new ArrayList<>();
        for (HostNode n : nodes) {
            if (n instanceof Deallocate && !withFrees) continue;
            out.add(n.getClass().getSimpleName() + (n instanceof ForLoop f ? kinds(f.body(), withFrees) : ""));
        }
        return out;
    }
}
