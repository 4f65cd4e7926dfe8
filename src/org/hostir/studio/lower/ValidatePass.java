package org.hostir.studio.lower;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;

/**
 * DESIGN 2.2 step 1 on the fusion being lowered: the same rules a fusion file is checked with when it is read
 * (shapes through each op, DID extents against meshes, no stream-parallel reduction, meshes within the devices,
 * no cycles), so fusions built in code get them too. Each failure names the tensor or op and the rule.
 */
public final class ValidatePass implements FusionPass {
    private static final String NAME = "Validate";

    /**
     * Which nvFuser the lowering follows, declared once for every front end ({@code --nvfuser 2026-04}, the
     * Lowering view, the launch tab): it picks the pipeline ({@link Pipeline#of(NvFuserGeneration)}) and the
     * dialect every snapshot prints in. Declared by the first pass, which both pipelines share.
     */
    public static final LoweringOption<NvFuserGeneration> NVFUSER = LoweringOption.choice("nvfuser",
            NvFuserGeneration.newest(), NvFuserGeneration.lowerableValues(), NvFuserGeneration::label, "nvFuser",
            "the nvFuser revision lowered as and printed in: 2025-06 (the seeds' revision 43b9a1aa5, the"
                    + " MultiDeviceExecutor path) or 2026-04 (main 81c4b22fd, the host_ir_lowering path)", NAME);

    /**
     * nvFuser's {@code NVFUSER_ENABLE=host_ir_lowering} (EnableOption::HostIrLowering, csrc/options.cpp): under
     * 2026-04, on (as test_overlap.py runs) the FusionExecutorCache path of csrc/host_ir/lowering.cpp, off the
     * MultiDeviceExecutor path (HostIrLower and StreamParallelType of that revision). The Studio models only the
     * MultiDeviceExecutor path of 2025-06, which ignores it.
     */
    /**
     * Off by default, as in nvFuser: {@code host_ir_lowering} is an {@code EnableOption} (csrc/options.cpp:178 and
     * options.h:123 at 81c4b22fd) that FusionKernelRuntime checks (fusion_kernel_runtime.cpp:124), and the tests that
     * use it ask for it ({@code _enable_options=["host_ir_lowering"]}, test_overlap.py:116).
     */
    public static final LoweringOption<Boolean> HOST_IR_LOWERING = LoweringOption.flag("hostIrLowering", false,
            "host_ir_lowering", "2026-04 only: lower as NVFUSER_ENABLE=host_ir_lowering does (lowering.cpp, then"
                    + " AllocateAndDeallocate and AssignStreams); off, as its MultiDeviceExecutor does", NAME);

    public String name() { return NAME; }

    @Override
    public List<LoweringOption<?>> options() { return List.of(NVFUSER, HOST_IR_LOWERING); }

    public Fusion run(Fusion fusion, LoweringContext context) {
        List<Diagnostic> problems = FusionValidator.validate(fusion, FusionBindings.devices(context.devices()),
                FusionLocator.inMemory(fusion.name()));
        if (!problems.isEmpty()) {
            throw new LoweringException(problems.stream().map(ValidatePass::error).toList());
        }
        return fusion;
    }

    private static LoweringError error(Diagnostic d) {
        return new LoweringError(d.path(), d.rule(), d.message(), d.subject());
    }
}
