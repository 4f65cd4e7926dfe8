package org.hostir.studio.tests.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.*;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Every node of the programs the seeds' dumps, the example dumps and the example fusions (lowered both ways) hold has
 * a headline a tree row can show: one line that starts with what the node defines or its kind, with balanced
 * brackets, naming each tensor its printed form names, never the bare {@code = op(..} continuation line of a
 * multi-line print nor a dangling {@code ->}.
 */
class NodeHeadlineTest {
    private record Program(String from, HostIrContainer program, NvFuserGeneration generation) {}

    @Test
    void everyNodeOfTheSeedsAndExamplesHasAOneLineHeadline() throws Exception {
        List<Program> programs = programs();
        assertTrue(programs.size() > 100, "programs read: " + programs.size());
        List<String> bad = new ArrayList<>();
        TreeSet<String> kinds = new TreeSet<>();
        for (Program p : programs) {
            for (HostNode n : p.program().allNodes()) {
                kinds.add(kind(n));
                String problem = problem(n, HostIrPrinter.headline(n, p.generation()));
                if (problem != null && bad.size() < 20) bad.add(p.from() + " " + kind(n) + ": " + problem);
            }
        }
        assertEquals(List.of(), bad);
        for (String k : List.of("HostOp:Matmul", "HostOp:Linear", "HostOp:Binary", "LaunchKernel", "HirAliasSelect",
                "Deallocate", "Communication", "ForLoop", "PostOnStream:LAUNCH_KERNEL", "PostOnStream:POST_ON_STREAM", "ShareMemHandles"))
            assertTrue(kinds.contains(k), k + " among the kinds printed: " + kinds);
    }

    @Test
    void aMatmulReadsAsNvFuserPrintsItOnOneLine() throws Exception {
        Path log = RepoPaths.repo().resolve(Path.of("examples", "dumps", "nvfuser-2026-04", "test_stream_matmul.log"));
        LogProgram p = Engine.readDumps(log).stream().filter(LogProgram::readable).findFirst().orElseThrow();
        HostOp mm = p.dump().program().allNodes().stream().filter(n -> n instanceof HostOp o
                && o.op() instanceof org.hostir.studio.ir.FusionOp.Matmul).map(HostOp.class::cast).findFirst()
                .orElseThrow();
        String row = HostIrPrinter.headline(mm, p.dump().generation());
        var op = (org.hostir.studio.ir.FusionOp.Matmul) mm.op();
        assertTrue(row.matches("T" + op.output().id() + "_g_float\\[[^\\]]*\\] = matmul\\(T" + op.a().id()
                + "_g_float\\[[^\\]]*\\], T" + op.b().id() + "_g_float\\[[^\\]]*\\]\\)"), row);
    }

    /** Why {@code headline} cannot be a row of {@code n}, or null. */
    private static String problem(HostNode n, String headline) {
        if (headline.isBlank() || headline.contains("\n")) return "not one line: [" + headline + "]";
        if (headline.startsWith("=")) return "starts with '=': " + headline;
        if (headline.strip().endsWith("->")) return "ends with '->': " + headline;
        if (!balanced(headline)) return "unbalanced brackets: " + headline;
        if (Stream.of(starts(n)).noneMatch(headline::startsWith))
            return "starts with none of " + List.of(starts(n)) + ": " + headline;
        for (TensorView t : operands(n)) {
            if (!Pattern.compile("(?<![A-Za-z0-9_])" + t.name() + "_").matcher(headline).find())
                return "no " + t.name() + ": " + headline;
        }
        return null;
    }

    private static boolean balanced(String s) {
        Deque<Character> open = new ArrayDeque<>();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '(', '[', '{' -> open.push(c);
                case ')', ']', '}' -> {
                    char want = c == ')' ? '(' : c == ']' ? '[' : '{';
                    if (open.isEmpty() || open.pop() != want) return false;
                }
                default -> { }
            }
        }
        return open.isEmpty();
    }

    /** What a row of {@code n} may start with: the tensor it defines, else its kind as nvFuser spells it. */
    private static String[] starts(HostNode n) {
        return switch (n) {
            case HostOp o -> new String[] {o.op().output().name() + "_"};
            case Allocate a -> new String[] {a.buffer().name() + "_"};
            case HirAliasSelect s -> new String[] {s.out().name() + "_"};
            case ShardByStream s -> new String[] {s.out().name() + "_"};
            case SymmetricContiguousView v -> new String[] {v.out().name() + "_"};
            case ForLoop _ -> new String[] {"FOR "};
            case IfThenElse _ -> new String[] {"IF "};
            case GetCurrentStream _ -> new String[] {"GetCurrentStream", "Stream "};
            case PostOnStream _ -> new String[] {"PostOnStream", "LaunchKernel("};
            case MoeDispatch _ -> new String[] {"Dispatch "};
            case MoeCombine _ -> new String[] {"Combine "};
            case OpaqueNode o -> new String[] {o.lines().get(0).strip()};
            case Deallocate _, SetCurrentStream _, Synchronize _, Communication _, CollectivePermute _,
                 P2PCommunication _, StartCoalescing _, EndCoalescing _, ShareMemHandles _, Wait _, LaunchKernel _ ->
                    new String[] {n.getClass().getSimpleName()};
        };
    }

    /** The tensors the node's printed form names (MoeDispatch prints four of its tensors, toInlineString). */
    private static List<TensorView> operands(HostNode n) {
        return switch (n) {
            case HostOp o -> Stream.concat(Stream.of(o.op().output()), o.op().inputs().stream()).toList();
            case Allocate a -> List.of(a.buffer());
            case Deallocate d -> List.of(d.buffer());
            case HirAliasSelect s -> List.of(s.out(), s.in());
            case ShardByStream s -> List.of(s.out(), s.in());
            case SymmetricContiguousView v -> List.of(v.out(), v.in());
            case Communication c -> List.of(c.input(), c.output());
            case CollectivePermute c -> List.of(c.input(), c.output());
            case P2PCommunication p -> List.of(p.buffer());
            case ShareMemHandles s -> s.communications().stream().map(P2PCommunication::buffer).toList();
            case PostOnStream p -> Stream.concat(p.inputs().stream(), p.outputs().stream()).toList();
            case LaunchKernel k -> Stream.concat(k.inputs().stream(), k.outputs().stream()).toList();
            case MoeDispatch d -> List.of(d.in(), d.topkIdx(), d.topkWeights(), d.out());
            case MoeCombine c -> List.of(c.in(), c.topkWeights(), c.srcIdx(), c.out());
            case ForLoop _, IfThenElse _, GetCurrentStream _, SetCurrentStream _, Synchronize _, StartCoalescing _,
                 EndCoalescing _, Wait _, OpaqueNode _ -> List.of();
        };
    }

    private static String kind(HostNode n) {
        return switch (n) {
            case HostOp o -> "HostOp:" + o.op().getClass().getSimpleName();
            case PostOnStream p -> "PostOnStream:" + p.launch();
            default -> n.getClass().getSimpleName();
        };
    }

    private static List<Program> programs() throws Exception {
        List<Program> out = new ArrayList<>();
        List<Path> texts = new ArrayList<>();
        try (var seeds = Files.list(RepoPaths.shared().resolve("seeds"))) {
            seeds.filter(f -> f.toString().endsWith(".txt")).sorted().forEach(texts::add);
        }
        try (var logs = Files.walk(RepoPaths.repo().resolve("examples"))) {
            logs.filter(f -> f.toString().endsWith(".log")).sorted().forEach(texts::add);
        }
        for (Path t : texts) {
            String text = Files.readString(t);
            if (!text.contains("%HostIrContainer")) continue; // a seed of no dump (a test's source, a note)
            for (LogProgram p : Engine.readDumps(text, t.getFileName().toString())) {
                if (p.readable()) out.add(new Program(p.label(), p.dump().program(), p.dump().generation()));
            }
        }
        try (var fusions = Files.walk(RepoPaths.repo().resolve("examples"))) {
            for (Path f : fusions.filter(x -> x.toString().endsWith(".fusion")).sorted().toList()) lowered(f, out);
        }
        return out;
    }

    /** The fusion lowered for rank 0 as the seeds' revision and as host_ir_lowering at 2026-04 do, if it lowers. */
    private static void lowered(Path f, List<Program> out) {
        var ways = List.of(Map.<String, String>of(), Map.of("nvfuser", "2026-04", "hostIrLowering", "true"));
        for (var options : ways) {
            try {
                var loaded = Engine.load(new FusionSource.File(f), 8, Map.of());
                var parsed = LoweringOptions.parse(options);
                HostIrContainer program = Engine.lowerRank(loaded, parsed, 0);
                for (NvFuserGeneration g : List.of(NvFuserGeneration.V2025_06, NvFuserGeneration.V2026_04))
                    out.add(new Program(f.getFileName() + " " + options + " " + g, program, g));
                // read back from its 2026-04 print: a kernel comes back as nvFuser's LaunchKernel node
                var read = HostIrDumpReader.read(HostIrPrinter.print(program, NvFuserGeneration.V2026_04));
                out.add(new Program(f.getFileName() + " " + options + " read back", read.program(), read.generation()));
            } catch (EngineFailure notThisWay) {
                // a fusion meant for another device count or refused on purpose: the others cover its kinds
            }
        }
    }
}
