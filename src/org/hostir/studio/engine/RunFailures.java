package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * A failure during a run (a fault, a resource, a rank that made no progress) as a diagnostic that points into the
 * file: the failure is typed ({@link RunFailure}) and names the IR tensors it is about; the first one that is a
 * tensor of the file gives the line (the op that writes it, else its declaration) and the message gets the file's
 * names ({@code T2 = 'c'}), so the user never sees {@code :0:} or internal names alone. The message is never read.
 */
public final class RunFailures {
    static final String RULE = RunFailure.RULE;
    private static final Subject RUN = new Subject.Setting("run");

    private RunFailures() {}

    /** {@code failure} at its file line; {@code message} is what to say (its first line). */
    public static Diagnostic located(RunFailure failure, String message, LoadedFusion loaded) {
        Map<Integer, TensorView> named = new LinkedHashMap<>();
        for (Subject.Tensor t : failure.tensors()) inFile(t, loaded).ifPresent(f -> named.putIfAbsent(f.id(), f));
        if (named.isEmpty()) {
            return new Diagnostic(loaded.source().file(), 0, "run failed", failure.rule(), message, RUN);
        }
        Subject subject = where(named.values().iterator().next().subject(), loaded);
        FusionLocator.Location at = loaded.locator().locate(subject);
        List<String> names = new ArrayList<>();
        named.values().forEach(t -> names.add(t.name() + " = '" + t.label() + "'"));
        return new Diagnostic(loaded.source().file(), at.line(), at.path(), failure.rule(),
                "run failed: " + message + " (" + String.join(", ", names) + ")", subject);
    }

    /** {@code failure} at its file line, saying its whole message. */
    public static Diagnostic located(RunFailure failure, LoadedFusion loaded) {
        return located(failure, failure.getMessage(), loaded);
    }

    /**
     * Where a failure about an IR tensor is put: for a tensor of the file, the op that writes it, else its
     * declaration; for another (one a lowering pass made), the run itself.
     */
    static Subject where(Subject.Tensor tensor, LoadedFusion loaded) {
        Optional<TensorView> file = inFile(tensor, loaded);
        if (file.isEmpty()) return RUN;
        Subject subject = file.get().subject();
        List<FusionOp> ops = loaded.fusion().ops();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).output().id() == tensor.index()) subject = new Subject.Op(i);
        }
        return subject;
    }

    /** The file's tensor of this IR id ({@code T<i>} is the file's i-th tensor), if the file has one. */
    private static Optional<TensorView> inFile(Subject.Tensor tensor, LoadedFusion loaded) {
        return loaded.tensors().stream().filter(f -> f.id() == tensor.index()).findFirst();
    }
}
