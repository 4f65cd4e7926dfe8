package org.hostir.studio.io;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads, converts and validates a fusion file in one call: the way the command line, the runner and the tests
 * load fusions. Each stage runs only when the one before found nothing, so the diagnostics are about the first
 * kind of problem the file has (syntax, then structure, then names, then the fusion's semantics).
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

    public static LoadedFusion load(ParsedFusion source, int devices, Map<String, Long> overrides)
            throws FusionFileException {
        FusionBindings bindings = FusionBindings.of(source.document(), devices, overrides);
        FusionConverter.Converted c = FusionConverter.convert(source, bindings);
        List<Diagnostic> problems = FusionValidator.validate(c.fusion(), c.tensors(), bindings, c.locator());
        if (!problems.isEmpty()) throw new FusionFileException(problems);
        return new LoadedFusion(source, c.fusion(), c.tensors(), bindings, c.locator());
    }
}
