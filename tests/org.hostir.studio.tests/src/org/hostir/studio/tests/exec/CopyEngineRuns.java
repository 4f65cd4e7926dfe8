package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;

/**
 * An example run with {@code backend=cuda} (copy-engine P2P) either validates or is refused because it lowers to
 * a CollectivePermute, which nvFuser posts only through NCCL (StreamLoopBody refuses it with this rule); any
 * other refusal or a wrong answer fails.
 */
final class CopyEngineRuns {
    static final String NCCL_ONLY = "sharding.collective-permute-backend";

    private CopyEngineRuns() {}

    @FunctionalInterface
    interface Run {
        RunResult get() throws Exception;
    }

    static void validatesOrIsNcclOnly(Run run) throws Exception {
        RunResult r;
        try {
            r = run.get();
        } catch (LoweringException e) {
            assertEquals(List.of(NCCL_ONLY), e.errors().stream().map(LoweringError::rule).distinct().toList(),
                    e.getMessage());
            return;
        }
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
    }
}
