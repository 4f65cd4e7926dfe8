package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.Stream;

/**
 * nvFuser 2026-04's AssignStreams (csrc/host_ir/assign_streams.cpp:16-62 at 81c4b22fd), the last of
 * {@code hir::runPasses} (csrc/host_ir/passes.cpp:16-19). Around every top-level loop: {@code Stream 0x.. =
 * GetCurrentStream()} before it; at the top of its body {@code SetCurrentStream(Stream i)} then
 * {@code Synchronize(Stream 0x..)}; after it {@code SetCurrentStream(Stream 0x..)} and a joining loop over the same
 * index whose body is {@code Synchronize(Stream i)}. The main stream has no index, so nvFuser names it by its
 * address; here an address made from the node's id, a name only (programs are compared modulo numbering).
 */
public final class AssignStreamsPass implements HostPass {
    public String name() { return "AssignStreams"; }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        List<HostNode> top = new ArrayList<>();
        for (HostNode node : program.topLevel()) {
            if (!(node instanceof ForLoop loop)) {
                top.add(node);
                continue;
            }
            Stream main = new Stream.Pointer(String.format("0x%x", 0x1000 + h.ir().nextNodeId()));
            top.add(h.inherit(loop.id(), h.getCurrentStream(main)));
            Stream worker = new Stream.Indexed(loop.index());
            List<HostNode> body = new ArrayList<>();
            body.add(h.inherit(loop.id(), h.setCurrentStream(worker)));
            body.add(h.inherit(loop.id(), h.synchronize(main)));
            body.addAll(loop.body());
            top.add(loop.withBody(body));
            top.add(h.inherit(loop.id(), h.setCurrentStream(main)));
            top.add(h.inherit(loop.id(), h.forRange(loop.index(), loop.start(), loop.stop(),
                    List.of(h.inherit(loop.id(), h.synchronize(worker))))));
        }
        return new HostIrContainer(program.inputs(), program.outputs(), top, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }
}
