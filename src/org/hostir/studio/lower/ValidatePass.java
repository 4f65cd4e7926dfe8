package org.hostir.studio.lower;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;

/**
 * DESIGN 2.2 step 1 on the fusion being lowered: the same rules a fusion file is checked with when it is read
 * (shapes through each op, DID extents against meshes, no stream-parallel reduction, meshes within the devices,
 * no cycles), so fusions built in code get them too. Each failure names the tensor or op and the rule.
 */
public final class ValidatePass implements FusionPass {
    public String name() { return "Validate"; }

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
