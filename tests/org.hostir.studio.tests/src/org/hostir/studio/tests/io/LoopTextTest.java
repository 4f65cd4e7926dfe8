package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.LoopText;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.ParallelType;
import org.junit.jupiter.api.Test;

/** The Properties view's one-line notation of loop steps: what it reads, what it refuses, and that it round-trips. */
class LoopTextTest {

    @Test
    void readsNvFuserLikeCalls() throws Exception {
        LoopText.Parsed p = LoopText.parse(" outer_split(1, D) ;parallelize(1,DIDx); split(3, 4); merge(0);"
                + " reorder(2, 0, 1); swizzle1d(0, ParallelType::DIDy); allocation(loop)");
        assertEquals(List.of(new LoopStep.Split(1, new ExtentSpec.Symbol("D"), false),
                new LoopStep.Parallelize(1, ParallelType.DIDX),
                new LoopStep.Split(3, new ExtentSpec.Size(4), true),
                new LoopStep.Merge(0),
                new LoopStep.Reorder(List.of(2, 0, 1)),
                new LoopStep.Swizzle1D(0, ParallelType.DIDY)), p.steps());
        assertTrue(p.allocationIsLoop());
        assertEquals(new LoopStep.Split(0, new ExtentSpec.Symbol("D"), false),
                LoopText.parse("split(0, D, false)").steps().get(0), "nvFuser's inner_split=false is outer_split");
        LoopText.Parsed none = LoopText.parse("  ");
        assertEquals(List.of(), none.steps());
        assertFalse(none.allocationIsLoop());
    }

    @Test
    void formatsAsItReads() throws Exception {
        List<LoopStep> steps = List.of(new LoopStep.Split(0, new ExtentSpec.Symbol("D"), false),
                new LoopStep.Parallelize(0, ParallelType.DIDX), new LoopStep.Reorder(List.of(1, 0)));
        String text = LoopText.format(steps, true);
        assertEquals("outer_split(0, D); parallelize(0, DIDx); reorder(1, 0); allocation(loop)", text);
        assertEquals(new LoopText.Parsed(steps, true), LoopText.parse(text));
    }

    /** Every tensor of every example with loop steps reads back from its own text unchanged. */
    @Test
    void everyExampleTensorRoundTrips() throws Exception {
        int seen = 0;
        for (Path f : Fixtures.exampleFiles()) {
            FusionDocument doc = FusionReader.read(Files.readString(f), f.getFileName().toString()).document();
            for (TensorSpec t : doc.tensors()) {
                if (t.loop().isEmpty() && !t.allocationIsLoop()) continue;
                seen++;
                assertEquals(new LoopText.Parsed(t.loop(), t.allocationIsLoop()), LoopText.parse(LoopText.format(t)),
                        f + " " + t.name());
            }
        }
        assertTrue(seen >= 5, "examples with loop steps: " + seen);
    }

    @Test
    void badTextIsOneLineThatSaysWhatToWrite() {
        List<String> messages = new ArrayList<>();
        for (String bad : new String[] {"outer_split(0 D)", "split 0 by D", "parallelize(0, DIDz)", "merge(x)",
                "shard(0)", "outer_split(0, -2)", "allocation(logical)", "reorder()"}) {
            var x = assertThrows(LoopText.SyntaxException.class, () -> LoopText.parse(bad), bad);
            assertFalse(x.getMessage().contains("\n"), x.getMessage());
            messages.add(x.getMessage());
        }
        assertEquals("step 1: outer_split takes 2 arguments, as outer_split(0, D), given 1", messages.get(0));
        assertEquals("step 1 'split 0 by D': write a call such as outer_split(0, D)", messages.get(1));
        assertTrue(messages.get(2).startsWith("step 1: 'DIDz' is not a parallel type (Serial, DIDx, DIDy, Stream"),
                messages.get(2));
        assertTrue(messages.get(4).contains("'shard' is not a loop step"), messages.get(4));
        assertTrue(messages.get(5).contains("a split factor is a positive integer"), messages.get(5));
    }

    /** A version 1 document becomes version 2 when a tensor gets loop steps, and the file keeps them. */
    @Test
    void stepsMakeTheFileVersion2AndSurviveWriting() throws Exception {
        Path seed = Fixtures.exampleFiles().stream().filter(p -> p.endsWith("seeds/ag_matmul_p2p.fusion")).findFirst()
                .orElseThrow();
        FusionDocument doc = FusionReader.read(Files.readString(seed), "seed.fusion").document();
        assertEquals(FusionDocument.FORMAT, doc.format());
        TensorSpec w = doc.tensor("tv1").orElseThrow();
        LoopText.Parsed p = LoopText.parse("outer_split(1, D); parallelize(1, DIDx)");
        TensorSpec split = new TensorSpec(w.name(), w.dtype(), w.memory(), w.axes(), w.mesh(), p.steps(),
                p.allocationIsLoop());
        List<TensorSpec> tensors = new ArrayList<>(doc.tensors());
        tensors.set(tensors.indexOf(w), split);
        FusionDocument edited = new FusionDocument(doc.name(), doc.description(), doc.symbols(), tensors, doc.ops(),
                doc.inputs(), doc.outputs(), doc.layout());
        String text = FusionWriter.write(edited);
        assertTrue(text.contains("\"format\": \"hostir-fusion/2\""), text);
        assertEquals(p.steps(), FusionReader.read(text, "w.fusion").document().tensor("tv1").orElseThrow().loop());
    }
}
