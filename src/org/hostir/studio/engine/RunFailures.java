package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * A failure during a run (a fault, a resource, a rank that made no progress) as a diagnostic that points into the
 * file: the backends speak of IR tensors ({@code T2 = add(T0, T1)}); the first one that is a tensor of the file
 * gives the line (the op that writes it, else its declaration) and the message gets the file's names
 * ({@code T2 = 'c'}), so the user never sees {@code :0:} or internal names alone.
 */
public final class RunFailures {
    static final String RULE = "run";
    private static final Pattern IR_TENSOR = Pattern.compile("\\bT(\\d+)\\b");

    private RunFailures() {}

    public static Diagnostic located(String message, LoadedFusion loaded) {
        Map<Integer, TensorView> named = new LinkedHashMap<>();
        Matcher m = IR_TENSOR.matcher(message);
        while (m.find()) {
            int id = Integer.parseInt(m.group(1));
            loaded.tensors().stream().filter(t -> t.id() == id).findFirst().ifPresent(t -> named.putIfAbsent(id, t));
        }
        if (named.isEmpty()) {
            return new Diagnostic(loaded.source().file(), 0, "run failed", RULE, message, new Subject.Setting("run"));
        }
        TensorView first = named.values().iterator().next();
        Subject subject = first.subject();
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).output().id() == first.id()) subject = new Subject.Op(i);
        }
        FusionLocator.Location at = loaded.locator().locate(subject);
        List<String> names = new ArrayList<>();
        named.values().forEach(t -> names.add(t.name() + " = '" + t.label() + "'"));
        return new Diagnostic(loaded.source().file(), at.line(), at.path(), RULE,
                "run failed: " + message + " (" + String.join(", ", names) + ")", subject);
    }
}
