package org.hostir.studio.cli;

import java.util.List;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.trace.analysis.ProgramNode;

/**
 * The programs {@code hirstudio trace} ties an imported trace's nvFuser dispatch ranges to, and {@code trace diff}
 * aligns two runs by: {@code --fusion F} (the Studio's lowering of each rank, with {@code --set} and
 * {@code --option} as {@code lower} takes them) or {@code --dump LOG} (the {@code NVFUSER_DUMP=host_ir} log of the
 * run that was profiled), for as many ranks as the trace has.
 */
final class TracePrograms {
    static final String FUSION = "--fusion", DUMP = "--dump";

    private TracePrograms() {
    }

    /** The top-level nodes of each rank's program; none when neither option is given. */
    static List<ProgramNode> of(Arguments a, int ranks) throws UsageException, EngineFailure {
        if (a.value(FUSION).isPresent() && a.value(DUMP).isPresent()) {
            throw new UsageException("give " + FUSION + " or " + DUMP + ", not both: one program ran");
        }
        if (a.value(DUMP).isPresent()) {
            return PredictedTrace.nodes(Engine.dumpPrograms(Arguments.input("LOG", a.value(DUMP).get()), ranks));
        }
        if (a.value(FUSION).isPresent()) {
            FusionArguments fusion = fusion(a, ranks);
            return PredictedTrace.nodes(fusion.load(), fusion.options());
        }
        return List.of();
    }

    /** {@code --fusion F} on {@code ranks} devices with the command line's symbols and options (the shared prologue). */
    static FusionArguments fusion(Arguments a, int ranks) throws UsageException {
        String file = a.value(FUSION).orElseThrow(() -> new UsageException("missing " + FUSION + " F.fusion"));
        return FusionArguments.of(a, file, ranks);
    }
}
