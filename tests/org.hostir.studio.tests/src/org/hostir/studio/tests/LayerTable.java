package org.hostir.studio.tests;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The allowed dependencies between the project's packages (docs/architecture.md): for each layer, the layers its
 * code may name directly (by import or by a fully qualified name). A package belongs to the layer with the longest
 * matching name ({@code ui.passes.model} is in {@code ui.passes}); code within one layer may use itself freely.
 * The lists are explicit rather than transitive so that a skip is a decision: {@code diff} may use {@code lower},
 * which uses {@code rules}; {@code exec} sits below {@code lower} (it runs the programs the engine's compilation
 * hands it and never lowers) and does not read fusion files. {@code diag}, the location model of every
 * diagnostic, is at the bottom, under the IR, so that every layer can carry typed diagnostics.
 */
final class LayerTable {
    static final String ROOT = "org.hostir.studio.";

    /** The IR, with the diagnostics below it that every layer may use. */
    private static final List<String> IR = List.of("diag", "ir", "ir.op", "ir.host", "ir.print", "ir.parse");
    private static final List<String> EXEC = List.of("exec", "exec.tensor", "exec.launch", "exec.cpu", "exec.cuda",
            "exec.sim", "exec.debug");
    /** Everything below the applications (bench, cli) and the IDE (ui). */
    private static final List<String> ENGINE = join(IR, List.of("rules", "file", "lower", "diff", "trace", "export"), EXEC);
    /** The service every front end goes through (load, bind, lower, plan, run), on top of the engine. */
    private static final List<String> SERVICE = join(ENGINE, List.of("engine"));
    /** The views: each may use the engine and the shared {@code ui} package, not one another. */
    static final List<String> VIEWS = List.of("ui.editor", "ui.passes", "ui.timeline", "ui.launch");

    /** Layer -> the layers it may use, bottom-up. */
    static final Map<String, List<String>> ALLOWED = table();

    private LayerTable() {}

    private static Map<String, List<String>> table() {
        Map<String, List<String>> t = new LinkedHashMap<>();
        t.put("diag", List.of());
        t.put("ir", List.of("diag"));
        t.put("ir.op", List.of("diag", "ir"));
        t.put("ir.host", List.of("diag", "ir"));
        t.put("ir.print", List.of("diag", "ir", "ir.op", "ir.host"));
        t.put("ir.parse", List.of("diag", "ir", "ir.op", "ir.host", "ir.print"));
        t.put("rules", IR);
        t.put("file", join(IR, List.of("rules")));
        t.put("lower", join(IR, List.of("rules")));
        t.put("diff", join(IR, List.of("rules", "lower")));
        t.put("trace", List.of("diag"));
        t.put("export", IR);
        t.put("exec.tensor", IR);
        t.put("exec", join(IR, List.of("trace", "exec.tensor")));
        t.put("exec.launch", join(IR, List.of("trace", "exec.tensor", "exec")));
        t.put("exec.cpu", join(IR, List.of("trace", "exec.tensor", "exec")));
        t.put("exec.cuda", join(IR, List.of("trace", "exec.tensor", "exec", "exec.launch")));
        t.put("exec.sim", join(IR, List.of("trace", "exec.tensor", "exec")));
        t.put("exec.debug", join(IR, List.of("trace", "exec.tensor", "exec"))); // the stepping controller
        t.put("bench", SERVICE); // a benchmark loads, lowers and runs through the engine
        t.put("bench.cuda", join(SERVICE, List.of("bench")));
        t.put("engine", ENGINE);
        t.put("cli", join(SERVICE, List.of("bench", "bench.cuda")));
        t.put("ui", SERVICE);
        for (String view : VIEWS) t.put(view, join(SERVICE, List.of("ui")));
        // the debugger presents Host IR Program launches in debug mode: above the launch view, beside the studio
        t.put("ui.debug", join(SERVICE, List.of("ui", "ui.launch")));
        t.put("ui.studio", join(SERVICE, List.of("ui", "ui.debug"), VIEWS));
        return t;
    }

    @SafeVarargs
    private static List<String> join(List<String>... parts) {
        List<String> out = new ArrayList<>();
        for (List<String> p : parts) out.addAll(p);
        return List.copyOf(out);
    }

    /** The layer of a project package ({@code org.hostir.studio.x.y}), or empty when the table has none. */
    static Optional<String> layerOf(String pkg) {
        if (!pkg.startsWith(ROOT)) return Optional.empty();
        String rel = pkg.substring(ROOT.length());
        String best = null;
        for (String layer : ALLOWED.keySet()) {
            if ((rel.equals(layer) || rel.startsWith(layer + ".")) && (best == null || layer.length() > best.length())) {
                best = layer;
            }
        }
        return Optional.ofNullable(best);
    }

    static boolean allows(String from, String to) { return from.equals(to) || ALLOWED.get(from).contains(to); }

    /** Layers the table itself lets reach each other both ways (it must be a DAG), as "a <-> b" lines. */
    static Set<String> cycles() {
        Set<String> out = new TreeSet<>();
        for (String a : ALLOWED.keySet()) {
            for (String b : ALLOWED.get(a)) {
                if (reaches(b, a, new TreeSet<>())) out.add(a + " <-> " + b);
            }
        }
        return out;
    }

    private static boolean reaches(String from, String to, Set<String> seen) {
        if (from.equals(to)) return true;
        if (!seen.add(from)) return false;
        for (String next : ALLOWED.getOrDefault(from, List.of())) {
            if (reaches(next, to, seen)) return true;
        }
        return false;
    }
}
