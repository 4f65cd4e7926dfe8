package org.hostir.studio.file;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.rules.FusionValidator;
import org.hostir.studio.rules.ShardingPropagation;

/**
 * Reads, converts and validates a fusion file in one call: the way the command line, the runner and the tests
 * load fusions. Each stage runs only when the one before found nothing, so the diagnostics are about the first
 * kind of problem the file has (syntax, then structure, then names, then the fusion's semantics). A file that
 * leaves meshes unstated loads with them inferred ({@link ShardingPropagation}; {@link LoadedFusion#written()} keeps
 * the fusion as written, which the lowering starts from).
 */
public final class FusionLoader {
    private FusionLoader() {}

    /** {@code overrides}: {@code --set} values; D is always the device count. */
    public static LoadedFusion load(Path file, String label, int devices, Map<String, Long> overrides)
            throws FusionFileException {
        return load(FusionReader.read(file, label), devices, overrides);
    }

    public static LoadedFusion load(Path file, int devices) throws FusionFileException {
        return load(file, file.toString(), devices, Map.of());
    }

    public static LoadedFusion load(String text, String file, int devices) throws FusionFileException {
        return load(FusionReader.read(text, file), devices, Map.of());
    }

    /** Loads a parsed file; an override of a symbol the fusion lacks is refused ({@link Rule#SYMBOL_UNKNOWN}). */
    public static LoadedFusion load(ParsedFusion source, int devices, Map<String, Long> overrides)
            throws FusionFileException {
        refuseUnknown(source, overrides);
        FusionBindings bindings = source.document().bindings(devices, overrides);
        FusionConverter.Converted c = FusionConverter.convert(source, bindings);
        List<Diagnostic> problems = FusionValidator.validateWritten(c.fusion(), c.tensors(), bindings, c.locator());
        if (!problems.isEmpty()) throw new FusionFileException(problems);
        LoadedFusion loaded = new LoadedFusion(source, c.fusion(), c.tensors(), bindings, c.locator());
        // the meshes and parallel types the file leaves unstated, inferred as the lowering's first pass infers them
        ShardingPropagation.Result r = ShardingPropagation.propagate(c.fusion());
        if (!r.conflicts().isEmpty()) {
            throw new FusionFileException(r.conflicts().stream().map(x -> x.diagnostic(c.locator())).toList());
        }
        if (!r.changed()) return loaded;
        LoadedFusion inferred = loaded.withInferred(r.fusion());
        // what the inferred shardings break, at the file's lines (Validate would say it at the lowering's first step)
        List<Diagnostic> after = FusionValidator.validate(r.fusion(), inferred.tensors(), bindings, c.locator());
        if (!after.isEmpty()) throw new FusionFileException(after);
        return inferred;
    }

    private static void refuseUnknown(ParsedFusion source, Map<String, Long> overrides) throws FusionFileException {
        Set<String> known = source.document().symbolNames();
        List<Diagnostic> unknown = new ArrayList<>();
        for (String s : overrides.keySet()) {
            if (!known.contains(s)) {
                unknown.add(new Diagnostic(source.file(), 0, "--set " + s, Rule.SYMBOL_UNKNOWN.id(), "the fusion has no"
                        + " symbol '" + s + "' (its symbols: " + String.join(", ", known) + ")",
                        new Subject.Setting(s)));
            }
        }
        if (!unknown.isEmpty()) throw new FusionFileException(unknown);
    }
}
