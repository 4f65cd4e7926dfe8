package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example fusions: each loads and validates for 1, 2, 4 and 8 devices (those whose explicit meshes name
 * devices up to 3, like scatter_two_stages, from as many devices on), and the seeds' examples have exactly the axis structure of the seeds' dumps.
 */
class ExampleFilesTest {
    static final int[] DEVICES = {1, 2, 4, 8};
    static final String SCATTER = "scatter_two_stages.fusion";

    static List<Path> examples() { return Fixtures.exampleFiles(); }

    @Test
    void theSeedExamplesAreAllThere() {
        Set<String> names = examples().stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        for (String seed : List.of("allgather_p2p", "ag_matmul_p2p", "allgather", "allreduce", "reduce_scatter",
                "ag_matmul", "matmul_ar", "matmul_rs_through_bcast", "ag_linear", "scatter_two_stages", "single_set",
                "two_sets", "three_sets_disjoint")) {
            assertTrue(names.contains(seed + ".fusion"), seed);
            assertTrue(Files.isRegularFile(Fixtures.examples().resolve("seeds").resolve(seed + ".fusion")), seed);
        }
        assertTrue(names.size() >= 15, "a few examples beyond the seeds: " + names);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void loadsAndValidatesForEveryDeviceCountItsScheduleAllows(Path file) throws Exception {
        boolean loadedWithFewer = false;
        for (int devices : DEVICES) {
            try {
                LoadedFusion f = FusionLoader.load(file, Fixtures.label(file), devices, Map.of());
                assertEquals(devices, f.bindings().devices());
                assertTrue(f.fusion().outputs().size() >= 1);
                loadedWithFewer = true;
            } catch (FusionFileException e) {
                // explicit meshes naming devices beyond the run (scatter_two_stages needs 4) are the only excuse
                assertFalse(loadedWithFewer, file + " loads with fewer devices but not with " + devices);
                assertTrue(devices < 4, file + " must run on 4 devices: " + e.getMessage());
                assertTrue(e.diagnostics().stream().allMatch(d -> d.rule().equals(Rule.MESH_DEVICE_RANGE.id())),
                        e.getMessage());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void hasADescriptionAndSmallDefaults(Path file) throws Exception {
        LoadedFusion f = FusionLoader.load(file, 4);
        String d = f.document().description();
        assertNotNull(d, file + " needs a description");
        if (file.getParent().endsWith("seeds")) {
            assertTrue(d.contains("seeds/00"), "a seed example names its seed: " + d);
        }
        assertTrue(f.document().symbols().values().stream().allMatch(v -> v <= 64),
                "small defaults so the CPU backend runs it: " + f.document().symbols());
        // every symbol except D is bound by a default: `run` works without --set
        f.fusion().symbols().forEach(s -> assertTrue(f.bindings().value(s.name()).isPresent(), s.name()));
    }

    /**
     * The seeds' tensors, as our numbering prints them for --devices 2: symbols as nvFuser's builder creates them
     * (one per input axis, i1 being its zeroVal; op outputs reuse their inputs'), so that ag_matmul, ag_linear and
     * the P2P seeds print nvFuser's own names. matmul_ar and matmul_rs_through_bcast list the DID axis first where
     * nvFuser's test reordered it for printing, so their D and S swap numbers (i0, i2) there.
     */
    static final Map<String, List<String>> SEED_TENSORS = Map.ofEntries(
            Map.entry("allgather_p2p", List.of(
                    "T0_g_float[ideviceIdx.x0{i0}, iS1{i2}] (DeviceMesh{0 1})",
                    "T1_g_float[iStreamIdx2{i0}, iS3{i2}] (DeviceMesh{0 1})")),
            Map.entry("ag_matmul_p2p", List.of(
                    "T0_g_float[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}] (DeviceMesh{0 1})",
                    "T1_g_float[iS3{i4}, iS4{i5}] (DeviceMesh{0 1})",
                    "T2_g_float[iStreamIdx5{i0}, iS6{i2}, iS7{i5}, rS8{i3}] (DeviceMesh{0 1})")),
            Map.entry("allgather", List.of(
                    "T0_g_float[iS0{i0}, ideviceIdx.x1{i2}] (DeviceMesh{0 1})",
                    "T1_g_float[iStreamIdx2{i0}, iS3{i2}] (DeviceMesh{0 1})")),
            Map.entry("allreduce", List.of(
                    "T0_g_float[iS0{i0}, ideviceIdx.x1{i2}, iS2{i3}] (DeviceMesh{0 1})",
                    "T1_g_float[iStreamIdx3{i0}, rS4{i2}, iS5{i3}] (DeviceMesh{0 1})")),
            Map.entry("reduce_scatter", List.of(
                    "T0_g_float[iS0{i0}, ideviceIdx.x1{i2}, iS2{i3}, iS3{i4}] (DeviceMesh{0 1})",
                    "T1_g_float[iStreamIdx4{i0}, rS5{i2}, ideviceIdx.x6{i3}, iS7{i4}] (DeviceMesh{0 1})")),
            Map.entry("ag_matmul", List.of(
                    "T0_g_float[iS0{i0}, ideviceIdx.x1{i2}, iS2{i3}, iS3{i4}] (DeviceMesh{0 1})",
                    "T1_g_float[iS4{i5}, iS5{i6}] (DeviceMesh{0 1})",
                    "T2_g_float[iStreamIdx6{i0}, iS7{i2}, iS8{i3}, iS9{i6}, rS10{i4}] (DeviceMesh{0 1})")),
            Map.entry("matmul_ar", List.of(
                    "T0_g_float[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}, iS3{i4}] (DeviceMesh{0 1})",
                    "T1_g_float[ideviceIdx.x4{i5}, iS5{i6}, iS6{i7}] (DeviceMesh{0 1})",
                    "T2_g_float[ideviceIdx.x7{i0}, iStreamIdx8{i2}, iS9{i3}, iS10{i7}, rS11{i4}] (DeviceMesh{0 1})",
                    "T3_g_float[iStreamIdx12{i2}, rS13{i0}, iS14{i3}, iS15{i7}] (DeviceMesh{0 1})")),
            Map.entry("matmul_rs_through_bcast", List.of(
                    "T0_g_float[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}, iS3{i4}, iS4{i5}] (DeviceMesh{0 1})",
                    "T1_g_float[ideviceIdx.x5{i6}, iS6{i7}, iS7{i8}] (DeviceMesh{0 1})",
                    "T2_g_float[ideviceIdx.x8{i6}, bS9{1}, bS10{1}, iS11{i7}, iS12{i8}] (DeviceMesh{0 1})",
                    "T3_g_float[ideviceIdx.x13{i0}, iStreamIdx14{i2}, iS15{i3}, iS16{i4}, iS17{i8}, rS18{i5}]"
                            + " (DeviceMesh{0 1})",
                    "T4_g_float[iStreamIdx19{i2}, rS20{i0}, ideviceIdx.x21{i3}, iS22{i4}, iS23{i8}] (DeviceMesh{0 1})")),
            Map.entry("ag_linear", List.of(
                    "T0_g_float[iS0{i0}, ideviceIdx.x1{i2}, iS2{i3}, iS3{i4}] (DeviceMesh{0 1})",
                    "T1_g_float[iS4{i5}, iS5{i6}] (DeviceMesh{0 1})",
                    "T2_g_float[iS6{i7}] (DeviceMesh{0 1})",
                    "T3_g_float[iStreamIdx7{i0}, iS8{i2}, iS9{i3}, iS10{i5}, rS11{i4}] (DeviceMesh{0 1})")),
            Map.entry("single_set", List.of(
                    "T0_g_float[iS0{i0}, iS1{i2}]",
                    "T1_g_float[iStreamIdx2{i0}, iS3{i2}]")),
            Map.entry("two_sets", List.of(
                    "T0_g_float[iS0{i0}, iS1{i2}]",
                    "T1_g_float[iStreamIdx2{i0}, iS3{i2}]",
                    "T2_g_float[iStreamIdx4{i0}, iS5{i2}]")),
            Map.entry("three_sets_disjoint", List.of(
                    "T0_g_float[iS0{i0}, iS1{i2}]",
                    "T1_g_float[iStreamIdx2{i0}, iS3{i2}]",
                    "T2_g_float[iS4{i0}, iS5{i2}]",
                    "T3_g_float[iStreamIdx6{i0}, iS7{i2}]")));

    @Test
    void seedExamplesHaveTheSeedsAxisStructure() throws Exception {
        for (var e : SEED_TENSORS.entrySet()) {
            Path file = Fixtures.examples().resolve("seeds").resolve(e.getKey() + ".fusion");
            LoadedFusion f = FusionLoader.load(file, 2);
            assertEquals(e.getValue(), f.tensors().stream().map(IrText::tensor).toList(), e.getKey());
        }
    }

    @Test
    void scatterTwoStagesHasTheSeedsConstantsAndMeshes() throws Exception {
        LoadedFusion f = FusionLoader.load(Fixtures.examples().resolve("seeds").resolve(SCATTER), 4);
        assertEquals(List.of(
                "T0_g_float[iS0{3}, iS1{4}, iS2{3}, iS3{5}] (DeviceMesh{0})",
                "T1_l_float[iS4{3}, iS5{4}, iS6{3}, rS7{5}] (DeviceMesh{0})",
                "T2_g_float[iS8{3}, ideviceIdx.x9{4}, iS10{3}] (DeviceMesh{0 1 2 3})",
                "T3_g_float[iS11{3}, ideviceIdx.x12{4}, iS13{3}] (DeviceMesh{0 1 2 3})"),
                f.tensors().stream().map(IrText::tensor).toList());
        assertEquals(List.of("sum", "set", "add"), f.fusion().ops().stream().map(o -> o.opName()).toList());
    }

    @Test
    void meshAllIsSizedByTheDeviceCount() throws Exception {
        Path file = Fixtures.examples().resolve("seeds").resolve("allgather_p2p.fusion");
        for (int devices : DEVICES) {
            TensorView t0 = FusionLoader.load(file, devices).tensors().getFirst();
            assertEquals(devices, t0.mesh().size());
            assertEquals(List.of(0, devices - 1), List.of(t0.mesh().deviceIds().getFirst(), t0.mesh().deviceIds().getLast()));
        }
    }

    @Test
    void scatterNeedsFourDevices() {
        Path file = Fixtures.examples().resolve("seeds").resolve(SCATTER);
        FusionFileException e = assertThrows(FusionFileException.class,
                () -> FusionLoader.load(file, "examples/seeds/" + SCATTER, 2, Map.of()));
        assertEquals(List.of(
                "error: examples/seeds/scatter_two_stages.fusion:14: $.tensors[2].mesh: the mesh of 'tv2' (T2) has"
                        + " devices 2, 3 but the run has 2 devices (0..1); it needs --devices 4"
                        + " [mesh.device-range]",
                "error: examples/seeds/scatter_two_stages.fusion:15: $.tensors[3].mesh: the mesh of 'tv3' (T3) has"
                        + " devices 2, 3 but the run has 2 devices (0..1); it needs --devices 4"
                        + " [mesh.device-range]"),
                e.diagnostics().stream().map(Diagnostic::format).toList());
    }
}
