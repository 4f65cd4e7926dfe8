package org.hostir.studio.tests.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.StructuralHash;
import org.junit.jupiter.api.Test;

class StructuralHashTest {

    private record Program(HostIrBuilder h, TensorView in, TensorView out) {
        static Program create() {
            IrBuilder b = new IrBuilder();
            TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.symbol("S")));
            TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null,
                    b.iter(b.symbol("S"), ParallelType.STREAM));
            return new Program(new HostIrBuilder(b), in, out);
        }

        ForLoop loop() {
            return h.forStreams(out.axis(0), List.of(h.setCurrentStream(HostIrBuilder.WORKER_STREAM),
                    h.select(out, in, in.axis(0), NamedScalar.STREAM_IDX)));
        }
    }

    @Test
    void subtreeHashIgnoresNodeIds() {
        Program p = Program.create();
        ForLoop a = p.loop();
        ForLoop b = p.loop();
        assertNotEquals(a.id(), b.id());
        assertNotEquals(a, b, "records compare ids");
        assertEquals(StructuralHash.of(a), StructuralHash.of(b), "structure is the same");
    }

    @Test
    void subtreeHashSeesEveryStructuralChange() {
        Program p = Program.create();
        ForLoop a = p.loop();
        HostNode otherStream = a.withBody(List.of(p.h().setCurrentStream(Stream.USER), a.body().get(1)));
        HostNode shorter = a.withBody(a.body().subList(0, 1));
        HostNode otherKind = p.h().synchronize(HostIrBuilder.WORKER_STREAM);
        HostNode sameFieldsOtherKind = p.h().setCurrentStream(HostIrBuilder.WORKER_STREAM);
        assertNotEquals(StructuralHash.of(a), StructuralHash.of(otherStream));
        assertNotEquals(StructuralHash.of(a), StructuralHash.of(shorter));
        assertNotEquals(StructuralHash.of(otherKind), StructuralHash.of(sameFieldsOtherKind));
    }

    @Test
    void programFingerprintTellsWhetherAPassChangedAnything() {
        Program p = Program.create();
        ForLoop loop = p.loop();
        HostIrContainer before = p.h().container(List.of(p.in()), List.of(p.out()), List.of(loop));
        HostIrContainer same = before.withTopLevel(List.copyOf(before.topLevel()), before.counters());
        HostIrContainer changed = before.withTopLevel(List.of(loop, p.h().getCurrentStream(Stream.USER)),
                before.counters());
        assertEquals(StructuralHash.withIds(before), StructuralHash.withIds(same));
        assertNotEquals(StructuralHash.withIds(before), StructuralHash.withIds(changed));
        assertEquals(3, before.allNodes().size(), "the loop and its two body nodes");
    }
}
