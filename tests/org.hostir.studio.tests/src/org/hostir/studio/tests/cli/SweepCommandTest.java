package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/** {@code sweep}: one simulated row per device count and option combination; a bad combination is a row, not an abort. */
class SweepCommandTest {
    private static String seed(String name) {
        return RepoPaths.repo().resolve("examples/seeds/" + name + ".fusion").toString();
    }

    @Test
    void everyDeviceCountAndCombinationIsARowWithAPredictedSpan() {
        CliRun r = CliRun.of("sweep", seed("ag_matmul_p2p"), "--devices", "2,4", "--vary",
                "offsetStreamIndexingByRank=false,true", "--vary", "backend=nccl,cuda", "--profile", "h200x8-nvlink");
        assertEquals(0, r.code(), r.err());
        List<String> rows = r.out().lines().skip(2).toList();
        assertEquals(8, rows.size(), r.out());
        assertTrue(rows.get(0).startsWith("| 2 | {offsetStreamIndexingByRank=false, backend=nccl} | "), rows.get(0));
        for (String row : rows) {
            double span = Double.parseDouble(row.split("\\|")[3].strip());
            assertTrue(span > 0, row);
        }
    }

    @Test
    void aRefusedCombinationIsReportedAndTheSweepGoesOn() {
        CliRun r = CliRun.of("sweep", seed("ag_matmul_p2p"), "--devices", "2", "--vary", "numberOfStreams=0,2");
        assertEquals(1, r.code());
        assertTrue(r.out().contains("| 2 | {numberOfStreams=0} | failed"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("| 2 | {numberOfStreams=2} | ") && !l.contains("failed")),
                r.out());
    }
}
