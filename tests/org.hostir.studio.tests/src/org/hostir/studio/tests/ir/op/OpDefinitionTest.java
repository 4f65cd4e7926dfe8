package org.hostir.studio.tests.ir.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.op.OpFamily;
import org.hostir.studio.ir.op.OpRule;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/** The op definitions (ir.op): what the validator, the reader and the passes rely on them for. */
class OpDefinitionTest {
    /** The validator looks each definition's rule up by id: every one must be a rule of the format. */
    @Test
    void everyOpRuleIsARuleOfTheFormat() {
        Set<String> ids = new HashSet<>();
        for (Rule r : Rule.values()) ids.add(r.id());
        for (OpRule r : OpRule.values()) assertTrue(ids.contains(r.id()), r + " (" + r.id() + ") is not in io.Rule");
    }

    /** One name per file op, each read back to its family; the families in the format's order. */
    @Test
    void fileOpsComeFromTheDefinitionsOnce() {
        Set<String> names = new HashSet<>();
        for (OpFamily f : OpFamily.values()) {
            for (String name : f.definition().fileNames()) {
                assertTrue(names.add(name), name + " is named twice");
                assertEquals(f, OpKind.fromFileName(name).orElseThrow().family(), name);
            }
        }
        assertEquals(names.size(), OpKind.values().length);
        assertEquals("SET", OpKind.SET.toString(), "spelled as the enum it replaced");
        assertEquals(List.of("set", "neg"), Arrays.stream(OpKind.values()).limit(2).map(OpKind::fileName).toList());
    }

    /**
     * Every op of every example rebuilds to itself over its own tensors ({@link FusionOp#withTensors}, what tensor
     * substitution, the structural comparison and the error bounds use), and every family occurs.
     */
    @Test
    void everyExampleOpRebuildsToItself() throws Exception {
        Set<OpFamily> seen = EnumSet.noneOf(OpFamily.class);
        List<Path> files;
        try (Stream<Path> s = Files.walk(TestPaths.repo("examples"))) {
            files = s.filter(p -> p.toString().endsWith(".fusion")).filter(p -> !TestPaths.refusedOnPurpose(p)).toList();
        }
        for (Path file : files) {
            List<FusionOp> ops;
            try {
                ops = FusionLoader.load(file, file.getFileName().toString(), 4, Map.of()).fusion().ops();
            } catch (Exception needsOtherDevices) {
                continue;
            }
            for (FusionOp op : ops) {
                assertEquals(op, op.withTensors(op.output(), op.inputs()), file + ": " + op.opName());
                assertNotNull(OpFamily.definition(op));
                seen.add(OpFamily.of(op));
            }
        }
        assertEquals(EnumSet.allOf(OpFamily.class), seen);
    }
}
