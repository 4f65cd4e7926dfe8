package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.junit.jupiter.api.Test;

/**
 * The two nodes last kept as text, now read into their fields: kir::Allocate's resets_to_zero and {@code .alias=}
 * line (csrc/kernel_ir.cpp:548-560 at 81c4b22fd) and LaunchKernel's scalar inputs (csrc/host_ir/ir.cpp:150-158,
 * each input by Val::toString, csrc/ir/base_nodes.cpp:265-281).
 */
class KernelNodesReadTest {
    private static final String T0 = "T0_g_float[iS0{i2}]";
    private static final String T1 = "T1_g_float[iS1{i2}]";

    private static ParsedDump read(String body) {
        return HostIrDumpReader.read("%HostIrContainer { (" + T0 + ") -> (" + T1 + ") :\n" + body
                + "} // %HostIrContainer\n");
    }

    @Test
    void anAllocationThatResetsToZeroAndAliasesAnotherIsReadWithBoth() {
        ParsedDump d = read("  T1_g_float[iS1{i2}] = ALLOCATE(buffer=T1_g_float[iS1{i2}], mem_type=global, size=i2, "
                + "zero_init=true, resets_to_zero=true)\n    .alias=T0_g_float[iS0{i2}]\n");
        assertEquals(List.of(), d.warnings());
        Allocate a = (Allocate) d.program().topLevel().getFirst();
        assertTrue(a.zeroInit() && a.resetsToZero());
        assertEquals(0, a.alias().id());
        assertEquals(Allocate.Form.KERNEL_IR, a.form());
        String printed = d.reprint();
        assertTrue(printed.contains("zero_init=true, resets_to_zero=true)\n    .alias=T0_g_float[iS0{i2}]\n"), printed);
    }

    @Test
    void anAllocationWithoutAliasHasNone() {
        ParsedDump d = read("  T1_g_float[iS1{i2}] = ALLOCATE(buffer=T1_g_float[iS1{i2}], mem_type=global, size=i2, "
                + "zero_init=false, resets_to_zero=false)\n");
        Allocate a = (Allocate) d.program().topLevel().getFirst();
        assertFalse(a.resetsToZero());
        assertNull(a.alias());
        assertFalse(d.reprint().contains(".alias="));
    }

    @Test
    void aKernelsScalarInputsKeepTheirPlaceAmongItsTensors() {
        ParsedDump d = read("  LaunchKernel(\n    Group ID: 2,\n    Inputs: {i2, " + T0 + ", d3, -1, double(0.5)},\n"
                + "    Outputs: {" + T1 + "},\n  )\n");
        assertEquals(List.of(), d.warnings());
        LaunchKernel k = (LaunchKernel) d.program().topLevel().getFirst();
        assertEquals(1, k.inputs().size());
        assertEquals(List.of(0, 2, 3, 4), k.scalarInputs().stream().map(LaunchKernel.ScalarInput::position).toList());
        assertTrue(k.scalarInputs().get(0).value() instanceof Extent.Symbolic);
        assertEquals(new NamedScalar("d3"), k.scalarInputs().get(1).value());
        assertEquals(List.of("i2", "T0", "d3", "-1", "double(0.5)"),
                k.arguments(t -> "T" + t.id(), s -> s instanceof NamedScalar n ? n.name() : "i2"));
        assertTrue(d.reprint().contains("Inputs: {i2, " + T0 + ", d3, -1, double(0.5)},"), d.reprint());
    }
}
