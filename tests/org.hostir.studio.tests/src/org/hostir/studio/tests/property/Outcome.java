package org.hostir.studio.tests.property;

import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.SeedGeneration;

/**
 * What became of one generated fusion: validated on the CPU backend, refused by check or by lowering (with its
 * rule), or one of the failures the property forbids: a wrong answer, a run-time failure of a program that lowered,
 * a refusal without a rule or a file line, or an internal error.
 */
record Outcome(Kind kind, String rule, String detail) {
    enum Kind {
        VALIDATED, REFUSED_BY_CHECK, REFUSED_BY_LOWERING,
        /** An integer division whose random divisor held a zero: the run fails with the op named, as PyTorch. */
        RAISED_AS_PYTORCH_DOES,
        WRONG_ANSWER, RUN_TIME_FAILURE, UNLOCATED_REFUSAL, INTERNAL_ERROR;

        boolean allowed() {
            return this == VALIDATED || this == REFUSED_BY_CHECK || this == REFUSED_BY_LOWERING
                    || this == RAISED_AS_PYTORCH_DOES;
        }
    }

    private static final long TIMEOUT_MILLIS = 5_000;
    /** IntegerDivisionByZero's message: the one run-time failure PyTorch raises too (data-dependent). */
    static final String ZERO_DIVISOR = ": integer division by zero (PyTorch raises ZeroDivisionError";

    static Outcome of(FusionSpec spec) { return of(spec.text(), spec.devices(), spec.options(), spec.seed()); }

    static Outcome of(SpaceCase c) { return of(c.text(), c.devices(), c.options(), c.seed()); }

    /** The outcome of a fusion text run on {@code devices} with {@code options}; {@code seed} draws its inputs. */
    static Outcome of(String text, int devices, Map<String, String> optionText, long seed) {
        LoweringOptions options;
        LoadedFusion loaded;
        try {
            options = SeedGeneration.options(optionText);
            loaded = Engine.load(new FusionSource.Text(text, "generated.fusion"), devices, Map.of());
        } catch (EngineFailure e) {
            return refused(Kind.REFUSED_BY_CHECK, e);
        } catch (RuntimeException e) {
            return new Outcome(Kind.INTERNAL_ERROR, "", "check: " + e);
        }
        try {
            // what `check` decides, not only the lowering: check also evaluates each rank's AllToAll layouts on
            // the file's extents (sharding.alltoall-layout), which the passes alone cannot
            Engine.check(loaded, options);
        } catch (EngineFailure e) {
            return refused(Kind.REFUSED_BY_LOWERING, e);
        } catch (RuntimeException e) {
            return new Outcome(Kind.INTERNAL_ERROR, "", "lowering: " + e);
        }
        return run(devices, seed, loaded, options);
    }

    private static Outcome run(int devices, long seed, LoadedFusion loaded, LoweringOptions options) {
        RunRequest cpu = RunRequest.cpu(devices, options);
        RunRequest request = new RunRequest(cpu.backend(), cpu.devices(), options, 1, 0, true, seed,
                TIMEOUT_MILLIS, false, Optional.empty(), false);
        try {
            RunResult r = Engine.run(loaded, BackendPlan.choose(request, "generated.fusion"), line -> { });
            var v = r.validation().orElse(null);
            if (v == null) return new Outcome(Kind.WRONG_ANSWER, "", "no validation");
            return v.passed() ? new Outcome(Kind.VALIDATED, "", v.line()) : new Outcome(Kind.WRONG_ANSWER, "", v.line());
        } catch (EngineFailure e) {
            String lines = String.join("; ", e.lines());
            // random integer inputs in [-8, 8) make a zero divisor likely: the run fails as PyTorch's integer
            // division raises; data-dependent, not a lowering's fault (the message is IntegerDivisionByZero's)
            if (lines.contains(ZERO_DIVISOR)) return new Outcome(Kind.RAISED_AS_PYTORCH_DOES, "", lines);
            return new Outcome(Kind.RUN_TIME_FAILURE, "", lines);
        } catch (RuntimeException e) {
            return new Outcome(Kind.INTERNAL_ERROR, "", "run: " + e);
        }
    }

    /** Each diagnostic of a refusal must name its rule and, unless it is about a setting (an option), a file line. */
    private static Outcome refused(Kind kind, EngineFailure e) {
        String lines = String.join("; ", e.lines());
        if (e.kind() != EngineFailure.Kind.BAD_INPUT || e.diagnostics().isEmpty()) {
            return new Outcome(Kind.RUN_TIME_FAILURE, "", lines);
        }
        String rule = e.diagnostics().getFirst().rule();
        for (Diagnostic d : e.diagnostics()) {
            boolean located = d.line() > 0 || d.subject() instanceof Subject.Setting;
            if (d.rule().isBlank() || !located) return new Outcome(Kind.UNLOCATED_REFUSAL, d.rule(), lines);
        }
        return new Outcome(kind, rule, lines);
    }
}
