package org.hostir.studio.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.trace.analysis.ProgramNode;

/**
 * The programs {@code hirstudio trace} ties an imported trace's nvFuser dispatch ranges to: {@code --fusion F}
 * (the Studio's lowering of each rank, with {@code --set} and {@code --option} as {@code lower} takes them) or
 * {@code --dump LOG} (the {@code NVFUSER_DUMP=host_ir} log of the run that was profiled), for as many ranks as the
 * trace has.
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
        List<HostIrContainer> programs = new ArrayList<>();
        if (a.value(DUMP).isPresent()) {
            Map<Integer, HostIrContainer> read = Engine.dumpPrograms(Arguments.input("LOG", a.value(DUMP).get()), ranks);
            programs.addAll(read.values());
        } else if (a.value(FUSION).isPresent()) {
            FusionArguments fusion = FusionArguments.of(a, a.value(FUSION).get(), ranks);
            LoadedFusion loaded = fusion.load();
            Compilation compilation = Engine.compile(loaded, fusion.options());
            for (int rank = 0; rank < ranks; rank++) programs.add(Engine.lowerRank(loaded, compilation, rank));
        }
        List<ProgramNode> nodes = new ArrayList<>();
        for (int rank = 0; rank < programs.size(); rank++) {
            List<HostNode> top = programs.get(rank).topLevel();
            // each node record is named as nvFuser's class (ir.host mirrors hir::), which getOpString() returns
            for (int i = 0; i < top.size(); i++) {
                nodes.add(new ProgramNode(rank, i, top.get(i).id(), top.get(i).getClass().getSimpleName()));
            }
        }
        return nodes;
    }

}
