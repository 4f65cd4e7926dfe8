package org.hostir.studio.tests.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diff.Canonical;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.diff.ShownNodes;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a comparison diffs canonical copies, the right one's node ids from RIGHT_NODE_BASE (1 << 24), so the
 * Dump view's tree read "Communication 16777216" beside a text printing "Communication 0". The node at the same
 * place in the shown program gives the label its text prints.
 */
class ShownNodesTest {
    private static HostIrContainer studio() throws Exception {
        String fusion = Files.readString(TestPaths.repo("examples", "seeds", "allgather.fusion"));
        var loaded = Engine.load(new FusionSource.Text(fusion, "allgather.fusion"), 8, Map.of());
        return Engine.lowerRank(loaded, LoweringOptions.parse(Map.of()), 0);
    }

    private static HostIrContainer dump() throws Exception {
        String log = Files.readString(TestPaths.repo("examples", "dumps", "nvfuser-tutorial", "allgather.log"));
        return HostIrDumpReader.read(log).program();
    }

    @Test
    void theRightSidesNodesAreShownAsTheirOwnTextPrintsThem() throws Exception {
        HostIrContainer studio = studio();
        ProgramComparison c = ProgramComparison.compare(dump(), studio, "dump", "studio");
        HostIrContainer shownProgram = Canonical.of(studio);
        Set<String> lines = HostIrPrinter.print(shownProgram).lines().map(String::strip).collect(Collectors.toSet());
        ShownNodes shown = ShownNodes.of(c.right(), shownProgram);
        List<Communication> compared = c.right().allNodes().stream().filter(Communication.class::isInstance)
                .map(Communication.class::cast).toList();
        assertFalse(compared.isEmpty(), "the lowering holds a Communication");
        for (Communication n : compared) {
            assertTrue(n.id() >= ProgramComparison.RIGHT_NODE_BASE, "the diff's numbering: " + n.id());
            assertFalse(lines.contains(HostIrPrinter.headline(n)), "the canonical copy's line is not the text's");
            HostNode s = shown.of(n);
            assertTrue(lines.contains(HostIrPrinter.headline(s)), HostIrPrinter.headline(s));
            assertEquals(0, ((Communication) s).id(), "Communication 0, as the text prints it");
        }
    }

    @Test
    void bothSidesMapToTheirOwnProgramsAndANodeOfNeitherStandsForItself() throws Exception {
        HostIrContainer dump = dump();
        HostIrContainer studio = studio();
        ProgramComparison c = ProgramComparison.compare(dump, studio, "dump", "studio");
        ShownNodes shown = ShownNodes.of(c.left(), dump).and(c.right(), studio);
        for (int i = 0; i < dump.topLevel().size(); i++) {
            assertSame(dump.topLevel().get(i), shown.of(c.left().topLevel().get(i)));
        }
        for (int i = 0; i < studio.allNodes().size(); i++) {
            assertSame(studio.allNodes().get(i), shown.of(c.right().allNodes().get(i)), "depth first, by place");
        }
        HostNode stranger = dump.topLevel().getFirst();
        assertSame(stranger, shown.of(stranger));
    }
}
