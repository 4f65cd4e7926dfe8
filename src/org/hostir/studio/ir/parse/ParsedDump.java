package org.hostir.studio.ir.parse;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.IndexDefinition;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * One container read from a dump: the program, the generation whose spelling it used, what the reader warned
 * about, and where it stood in the text (1-based lines, inclusive).
 *
 * @param layoutKept whether the dump kept its line breaks (seed 001's lost them: nesting was then inferred)
 * @param signatureText the container's {@code (inputs) -> (outputs) :} as printed when the reader could not read
 *                      it (the program then has none), else null
 */
public record ParsedDump(HostIrContainer program, NvFuserGeneration generation, List<DumpWarning> warnings,
                         int firstLine, int lastLine, boolean layoutKept, List<IndexDefinition> indices,
                         String signatureText) {
    public ParsedDump {
        Objects.requireNonNull(program);
        Objects.requireNonNull(generation);
        warnings = List.copyOf(warnings);
        indices = List.copyOf(indices);
        if (signatureText != null && !(program.inputs().isEmpty() && program.outputs().isEmpty())) {
            throw new IllegalArgumentException("a signature kept as text, and inputs or outputs read");
        }
    }

    /** A dump whose signature was read. */
    public ParsedDump(HostIrContainer program, NvFuserGeneration generation, List<DumpWarning> warnings,
                      int firstLine, int lastLine, boolean layoutKept, List<IndexDefinition> indices) {
        this(program, generation, warnings, firstLine, lastLine, layoutKept, indices, null);
    }

    /** A dump without index definitions. */
    public ParsedDump(HostIrContainer program, NvFuserGeneration generation, List<DumpWarning> warnings,
                      int firstLine, int lastLine, boolean layoutKept) {
        this(program, generation, warnings, firstLine, lastLine, layoutKept, List.of());
    }

    /** The program printed back in the dump's own generation, with its index definitions when it had them. */
    public String reprint() {
        String printed = HostIrPrinter.print(program, generation);
        if (signatureText != null) {
            // the printer wrote "() -> () :" on the container's first line: the kept text stands there instead
            int lineEnd = printed.indexOf('\n');
            printed = HostIrDumpReader.OPEN + " { " + signatureText + printed.substring(lineEnd);
        }
        return printed + HostIrPrinter.indexDefinitions(indices, generation);
    }

    /** The statements kept as text. */
    public List<OpaqueNode> opaqueNodes() {
        return program.allNodes().stream().filter(OpaqueNode.class::isInstance).map(OpaqueNode.class::cast).toList();
    }
}
