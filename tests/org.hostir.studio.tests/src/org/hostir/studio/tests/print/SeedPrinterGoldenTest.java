package org.hostir.studio.tests.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.api.Test;

/**
 * Golden tests: the programs of the seeds, built by hand, print as the seeds' dumps (see {@link SeedDumps} for
 * the normalisation: whitespace and id numbering).
 */
class SeedPrinterGoldenTest {

    private static void assertPrints(String seedDump, HostIrContainer program) {
        String printed = HostIrPrinter.print(program);
        assertEquals(SeedDumps.normalize(seedDump), SeedDumps.normalize(printed),
                () -> "printed program differs from the seed's dump\n--- printed ---\n" + printed
                        + "--- seed ---\n" + seedDump);
    }

    @Test
    void seed000AllgatherP2p() {
        assertPrints(SeedDumps.dumps("000").get(0), SeedPrograms.allgatherP2p());
    }

    @Test
    void seed000AgMatmulP2p() {
        assertPrints(SeedDumps.dumps("000").get(1), SeedPrograms.agMatmulP2p());
    }

    @Test
    void seed001Allgather() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.Allgather "),
                SeedPrograms.allgather());
    }

    @Test
    void seed001Allreduce() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.Allreduce "),
                SeedPrograms.allreduce());
    }

    @Test
    void seed001ReduceScatter() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.ReduceScatter "),
                SeedPrograms.reduceScatter());
    }

    @Test
    void seed001AgMatmul() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.AG_matmul "),
                SeedPrograms.agMatmul());
    }

    @Test
    void seed001MatmulAllreduce() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.matmul_AR "),
                SeedPrograms.matmulAllreduce());
    }

    @Test
    void seed001MatmulReduceScatterThroughBroadcast() {
        assertPrints(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.matmul_RS_through_bcast "),
                SeedPrograms.matmulReduceScatterThroughBroadcast());
    }

    @Test
    void seed003ScatterTwoStages() {
        assertPrints(SeedDumps.dumpContaining("003", "type=Scatter"), SeedPrograms.scatterTwoStages());
    }

    /** Seeds 000 and 003 kept their line breaks: there the printer's layout must match line for line. */
    @Test
    void layoutMatchesWhereTheSeedsKeptIt() {
        String seed = SeedDumps.dumps("000").get(0);
        assertEquals(SeedDumps.normalizeKeepingLayout(seed),
                SeedDumps.normalizeKeepingLayout(HostIrPrinter.print(SeedPrograms.allgatherP2p())));
        String scatter = SeedDumps.dumpContaining("003", "type=Scatter");
        assertEquals(SeedDumps.normalizeKeepingLayout(scatter),
                SeedDumps.normalizeKeepingLayout(HostIrPrinter.print(SeedPrograms.scatterTwoStages())));
    }

    /** The normalisation must not hide real differences: a wrong type, team or order breaks the match. */
    @Test
    void normalisationKeepsWhatMatters() {
        String seed = SeedDumps.normalize(SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest.Allgather "));
        String printed = HostIrPrinter.print(SeedPrograms.allgather());
        for (String mutated : List.of(
                printed.replace("type=Allgather", "type=Allreduce"),
                printed.replace("team=(0 1 2 3 4 5 6 7)", "team=(0 1 2 3 4 5 6)"),
                printed.replace("iS", "rS"),
                printed.replace("size=i1", "size=i0"),
                printed.replace("Synchronize Stream 0", "Synchronize Stream 1"))) {
            assertNotEquals(printed, mutated, "the mutation must change the text");
            assertNotEquals(seed, SeedDumps.normalize(mutated), () -> "normalisation hid:\n" + mutated);
        }
        // renumbering consistently is invisible, which is the point
        assertEquals(SeedDumps.normalize(printed), SeedDumps.normalize(printed.replace("T0_", "T42_")));
    }

    @Test
    void seedsHoldTheDumpsTheTestsUse() {
        assertEquals(2, SeedDumps.dumps("000").stream().map(SeedDumps::normalize).distinct().count());
        assertTrue(SeedDumps.dumps("001").size() >= 6, "seed 001 has six multi-device dumps");
    }
}
