package org.hostir.studio.cli;

import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.file.LoadedFusion;
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
            return PredictedTrace.nodes(fusion(a, ranks), a.loweringOptions(Map.of()));
        }
        return List.of();
    }

    /** The fusion of {@code --fusion F} loaded for {@code ranks} devices with {@code --set}'s symbols. */
    static LoadedFusion fusion(Arguments a, int ranks) throws UsageException, EngineFailure {
        String file = a.value(FUSION).orElseThrow(() -> new UsageException("missing " + FUSION + " F.fusion"));
        return Engine.load(new FusionSource.File(Arguments.input("FILE", file), file), ranks, a.symbols());
    }
}
