package org.hostir.studio.tests.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.IdentityHashMap;
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
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.ShareMemHandles;
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
        Canonical.Copy shownCopy = Canonical.copy(studio, 0);
        Set<String> lines = HostIrPrinter.print(shownCopy.program()).lines().map(String::strip)
                .collect(Collectors.toSet());
        ShownNodes shown = ShownNodes.rightAs(c, shownCopy);
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
        ShownNodes shown = ShownNodes.sources(c);
        for (int i = 0; i < dump.topLevel().size(); i++) {
            assertSame(dump.topLevel().get(i), shown.of(c.left().topLevel().get(i)));
        }
        for (int i = 0; i < studio.allNodes().size(); i++) {
            assertSame(studio.allNodes().get(i), shown.of(c.right().allNodes().get(i)), "depth first, by place");
        }
        HostNode stranger = dump.topLevel().getFirst();
        assertSame(stranger, shown.of(stranger));
    }

    /** The pairing by place this class replaced: the node at the same place in {@code shown}, bodies included. */
    private static void byPlace(List<HostNode> compared, List<HostNode> shown, Map<HostNode, HostNode> out) {
        if (compared.size() != shown.size()) return;
        for (int i = 0; i < compared.size(); i++) {
            out.put(compared.get(i), shown.get(i));
            List<List<HostNode>> cb = compared.get(i).bodies();
            List<List<HostNode>> sb = shown.get(i).bodies();
            for (int b = 0; b < Math.min(cb.size(), sb.size()); b++) byPlace(cb.get(b), sb.get(b), out);
        }
    }

    /**
     * Why the pairing goes by what a node copies: by place, the P2Ps inside a ShareMemHandles (fields, not a body)
     * were never paired and kept the diff's number (16777216..), and a text of another program of the same shape
     * paired every row with a stranger's node, silently. By source, the first is paired and the second pairs none.
     */
    @Test
    void pairingByPlaceWasFragileBySourceItIsNot() throws Exception {
        String log = Files.readString(TestPaths.repo("examples", "dumps", "nvfuser-indices", "p2p_allgather_5327.log"));
        HostIrContainer dump = HostIrDumpReader.read(log).program();
        ProgramComparison c = ProgramComparison.compare(dump, dump, "a", "b");
        P2PCommunication inner = c.right().allNodes().stream().filter(ShareMemHandles.class::isInstance)
                .map(n -> ((ShareMemHandles) n).communications().getFirst()).findFirst().orElseThrow();
        assertTrue(inner.id() >= ProgramComparison.RIGHT_NODE_BASE);
        Map<HostNode, HostNode> placed = new IdentityHashMap<>();
        byPlace(c.right().topLevel(), dump.topLevel(), placed);
        assertFalse(placed.containsKey(inner), "by place: a ShareMemHandles' P2P is never paired");
        HostNode shownInner = ShownNodes.sources(c).of(inner);
        assertEquals(37, ((P2PCommunication) shownInner).id(), "by source: P2PCommunication 37, as the dump prints it");
        assertTrue(dump.allNodes().stream().anyMatch(n -> n instanceof ShareMemHandles s
                && s.communications().stream().anyMatch(p -> p == shownInner)), "the dump's own node");

        // a text of another program of the same shape: by place every row is paired with its node
        HostIrContainer other = HostIrDumpReader.read(log.replace("Synchronize Stream 0", "Synchronize Stream 5"))
                .program();
        placed.clear();
        byPlace(c.right().topLevel(), other.topLevel(), placed);
        assertSame(other.topLevel().getFirst(), placed.get(c.right().topLevel().getFirst()), "by place: a stranger");
        ShownNodes throughOther = ShownNodes.rightAs(c, Canonical.copy(other, 0));
        for (HostNode n : c.right().allNodes()) assertSame(n, throughOther.of(n), "by source: nothing of another");
    }
}
