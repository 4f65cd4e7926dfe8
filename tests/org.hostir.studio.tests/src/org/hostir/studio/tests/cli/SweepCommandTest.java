package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.hostir.studio.cli.SweepCommand;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * Issue 33: the CUDA backend's P2P protocol by its transport. Get and Put cost the same (docs/simulation.md);
     * at these small messages the copy engine's lower latency on h200x8-nvlink beats TMA's launch and NVLink hop,
     * which shows in the exposed communication.
     */
    @Test
    void aProtocolByTransportSweep() {
        CliRun r = CliRun.of("sweep", RepoPaths.repo().resolve("examples/parallelism/matmul_rs_p2p.fusion").toString(),
                "--devices", "4", "--option", "backend=cuda", "--option", "offsetStreamIndexingByRank=true",
                "--vary", "p2pProtocol=get,put", "--vary", "p2pTransport=CopyEngine,Tma", "--profile", "h200x8-nvlink");
        assertEquals(0, r.code(), r.err());
        List<String> rows = r.out().lines().skip(2).toList();
        assertEquals(4, rows.size(), r.out());
        assertTrue(rows.get(0).startsWith("| 4 | {p2pProtocol=get, p2pTransport=CopyEngine} | "), rows.get(0));
        // the rows differ in their exposed communication (the span here is the host's dispatch)
        List<String> exposed = rows.stream().map(row -> row.split("\\|")[5].strip()).toList();
        assertEquals(exposed.get(0), exposed.get(2), "get and put over the copy engine");
        assertEquals(exposed.get(1), exposed.get(3), "get and put over TMA");
        assertTrue(Double.parseDouble(exposed.get(0)) < Double.parseDouble(exposed.get(1)), r.out());
        for (int i = 0; i < 2; i++) assertEquals(rows.get(i).split("\\|")[3], rows.get(i + 2).split("\\|")[3]);
    }

    /**
     * A point refused for what it asks is bad input, exit 2 as every other command's, its error one line on stderr
     * (it was exit 1, the code of a run that failed).
     */
    @Test
    void aPointThatFailsIsReportedAndTheSweepGoesOn() {
        // the example's mesh holds device 3: 2 devices is a failed row (the mesh does not fit), 4 a row with figures
        CliRun r = CliRun.of("sweep", RepoPaths.repo().resolve("examples/allgather_p2p_sub_mesh.fusion").toString(),
                "--devices", "2,4");
        assertEquals(2, r.code(), r.err());
        // one line per problem of the point (each tensor on the mesh), file:line and rule
        assertTrue(r.err().lines().allMatch(l -> l.matches("error: .*allgather_p2p_sub_mesh.fusion:[0-9]+: .*"
                + " \\[mesh.device-range\\]")), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("| 2 | - | failed")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("| 4 | - | ") && !l.contains("failed")), r.out());
        assertTrue(r.err().contains("it needs --devices 4 [mesh.device-range]"), r.err());
    }

    /** A point whose simulated run failed makes the sweep exit 1, as run does, whatever else was refused. */
    @Test
    void aRunThatFailedIsExitOneAndARefusedPointExitTwo() {
        var ok = new ScheduleSweep.Point(2, Map.of(), new ScheduleSweep.Figures(1, OptionalDouble.empty(), 0));
        var refused = new ScheduleSweep.Point(3, Map.of(), EngineFailure.Kind.BAD_INPUT, List.of("error: f: x [r]"));
        var failed = new ScheduleSweep.Point(4, Map.of(), EngineFailure.Kind.RUN_FAILED, List.of("error: f: y [s]"));
        assertEquals(0, SweepCommand.exitCode(List.of(ok)));
        assertEquals(2, SweepCommand.exitCode(List.of(ok, refused)));
        assertEquals(1, SweepCommand.exitCode(List.of(ok, failed)));
        assertEquals(1, SweepCommand.exitCode(List.of(refused, failed)));
    }

    /** Issue 31: what every point shares is refused once, before the first point, with exit 2 and no table. */
    @Test
    void badOptionsProfilesAndListsAreRefusedBeforeTheFirstPoint(@TempDir Path dir) throws IOException {
        Path garbage = Files.writeString(dir.resolve("prof.json"), "{ \"format\": ");
        List<List<String>> cases = List.of(
                List.of("--devices", "2,4", "--vary", "numberOfStreams=0,2"),
                List.of("--devices", "2,4", "--option", "numberOfStreams=0"),
                List.of("--devices", "2,4", "--vary", "allgather=magic"),
                List.of("--devices", "2,4", "--vary", "noSuchOption=1,2"),
                List.of("--devices", "2,4", "--profile", "no-such-profile"),
                List.of("--devices", "2,4", "--profile", garbage.toString()));
        for (List<String> c : cases) {
            List<String> args = new ArrayList<>(List.of("sweep", seed("ag_matmul_p2p")));
            args.addAll(c);
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, r.code(), c + ": " + r.err());
            assertEquals("", r.out(), c + ": no table");
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), c + ": " + r.err());
            assertTrue(lines.getFirst().startsWith("error: "), lines.getFirst());
        }
    }

    @Test
    void emptyAndRepeatedListItemsAreRefused() {
        for (List<String> c : List.of(List.of("--devices", ","), List.of("--devices", ""), List.of("--devices", "2,"),
                List.of("--devices", "2,2"), List.of("--devices", "2", "--vary", "numberOfStreams=1,,2"),
                List.of("--devices", "2", "--vary", "numberOfStreams=2,2"),
                List.of("--devices", "2", "--vary", "numberOfStreams=1", "--vary", "numberOfStreams=2"),
                List.of("--devices", "\uff12"), List.of("--devices", "2, 4"),
                List.of("--devices", "2", "--vary", "numberOfStreams=1, 2"))) {
            List<String> args = new ArrayList<>(List.of("sweep", seed("ag_matmul_p2p")));
            args.addAll(c);
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, r.code(), c + ": " + r.err());
            assertTrue(r.err().startsWith("error: sweep: --"), c + ": " + r.err());
            assertEquals("", r.out(), c.toString());
        }
    }
}
