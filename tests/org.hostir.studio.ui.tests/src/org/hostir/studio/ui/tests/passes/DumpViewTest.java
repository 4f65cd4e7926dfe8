package org.hostir.studio.ui.tests.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The nvFuser Dump view on a log built from seed 000's two dumps (noise and a per-pass label between them): one
 * snapshot per program with tree and text diffs, the filter, and "Compare with Studio lowering" against the seed's
 * own example (equal, numbering aside) and with another allgather option (the expected difference).
 */
public class DumpViewTest {
    private static final String OPEN = "%HostIrContainer {";
    private static final String CLOSE = "} // %HostIrContainer";

    private IWorkbenchPage page;
    private DumpView view;

    /** The first two containers of seed 000 (AllgatherP2p, then AG_matmul_P2p). */
    public static List<String> seed000Dumps() throws Exception {
        Path seeds = ViewTestSupport.repoFile("../shared/seeds");
        Path seed;
        try (Stream<Path> files = Files.list(seeds)) {
            seed = files.filter(p -> p.getFileName().toString().startsWith("000_")).findFirst().orElseThrow();
        }
        String text = Files.readString(seed);
        List<String> out = new ArrayList<>();
        int from = 0;
        while (out.size() < 2) {
            int start = text.indexOf(OPEN, from);
            int end = text.indexOf(CLOSE, start) + CLOSE.length();
            out.add(text.substring(start, end));
            from = end;
        }
        return out;
    }

    public static String log(List<String> dumps) {
        return String.join("\n", "[ RUN      ] MultiDeviceStreamParallelTypeTest.AllgatherP2p",
                "Fusion after pass: StreamParallelType", dumps.get(0), "[       OK ] (3 ms)",
                "[ RUN      ] MultiDeviceStreamParallelTypeTest.AG_matmul_P2p", "I1124 unrelated output",
                "Fusion after pass: StreamParallelType", dumps.get(1), "done");
    }

    @BeforeEach
    public void open() throws Exception {
        page = ViewTestSupport.page();
        page.getWorkbenchWindow().getShell().setSize(1280, 960);
        view = (DumpView) page.showView(DumpView.ID);
        view.show(log(seed000Dumps()), "run.log");
        ViewTestSupport.spin(Display.getCurrent(), 200);
    }

    @Test
    public void showsOneSnapshotPerProgramWithTreeDiffs() {
        assertEquals(2, view.snapshots().size());
        assertTrue(view.snapshots().label(1).contains("AG_matmul_P2p"), view.snapshots().label(1));
        view.select(0);
        assertTrue(view.treeRows().stream().allMatch(r -> r.kind() == DiffKind.UNCHANGED), "the first is as is");
        view.select(1);
        List<PassRow> rows = view.treeRows();
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.ADDED), "the matmul program adds nodes");
        view.setFilter("AG_matmul");
        assertEquals(1, view.selected());
        view.setFilter("");
    }

    @Test
    public void comparesASnapshotWithTheStudiosLowering() throws Exception {
        String fusion = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        view.select(1);
        view.compareWith(fusion, "ag_matmul_p2p.fusion", 8, 0, Map.of());
        assertNotNull(view.comparison());
        assertTrue(view.comparison().result().equal(), view.messageText());
        assertTrue(view.messageText().startsWith("structurally equal"), view.messageText());
        assertTrue(view.treeRows().stream().noneMatch(PassRow::isChange));
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "dump-compare.png");

        view.compareWith(fusion, "ag_matmul_p2p.fusion", 8, 0, Map.of("allgather", "collective"));
        assertFalse(view.comparison().result().equal());
        List<PassRow> rows = view.treeRows();
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.ADDED && r.node() instanceof Communication));
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.REMOVED && r.node() instanceof P2PCommunication));
    }

    @Test
    public void aFileThatIsNoDumpIsAMessage() throws Exception {
        Path notADump = Files.createTempFile("not-a-dump", ".txt");
        Files.writeString(notADump, "hello\n");
        view.open(notADump);
        assertTrue(view.messageText().contains("[dump.none]"), view.messageText());
        view.open(notADump.resolveSibling("missing-" + System.nanoTime() + ".log"));
        assertTrue(view.messageText().contains("[dump.read]"), view.messageText());
    }
}
