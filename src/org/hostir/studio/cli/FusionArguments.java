package org.hostir.studio.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest.BackendChoice;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;

/**
 * The fusion a command lowers, parsed once from its command line: the file, the device count, the {@code --set}
 * symbols and the lowering options ({@code --option}, {@code --nvfuser}). The shared prologue of {@code check},
 * {@code debug}, {@code diff}'s fusion sides, {@code export}, {@code lower} and {@code trace --fusion}; a usage
 * mistake in any of them is a {@link UsageException}, checked in this order (file, devices, options, symbols)
 * before the command's own options.
 */
record FusionArguments(String file, int devices, Map<String, Long> symbols, LoweringOptions options) {
    private static final Set<String> SINGLE = Set.of("--devices", RunCommandLine.NVFUSER);
    private static final Set<String> REPEATABLE = Set.of("--set", "--option");

    FusionArguments {
        symbols = Collections.unmodifiableMap(new LinkedHashMap<>(symbols)); // in the order given
    }

    /** A parser for a command on a positional FILE.fusion: the shared options and the command's own. */
    static ArgumentParser parser(Set<String> single, Set<String> repeatable, Set<String> flags) {
        return new ArgumentParser(union(SINGLE, single), union(REPEATABLE, repeatable), flags);
    }

    private static Set<String> union(Set<String> shared, Set<String> own) {
        Set<String> all = new HashSet<>(shared);
        all.addAll(own);
        return all;
    }

    /** FILE.fusion as the one positional argument, on {@code --devices N} or as many devices as its meshes need. */
    static FusionArguments of(Arguments a) throws UsageException {
        String file = a.file();
        return of(a, file, a.devicesFor(file));
    }

    /** {@code file} (an option's value) on {@code devices} devices, with the command line's symbols and options. */
    static FusionArguments of(Arguments a, String file, int devices) throws UsageException {
        Arguments.input("FILE", file);
        LoweringOptions options = a.loweringOptions(Map.of());
        return new FusionArguments(file, devices, a.symbols(), options);
    }

    /** The fusion read, converted and bound to the symbols and devices. */
    LoadedFusion load() throws EngineFailure {
        return Engine.load(new FusionSource.File(Path.of(file), file), devices, symbols);
    }

    /**
     * {@code --backend}'s value, shared by the commands that run a program ({@code run}, {@code debug}): a
     * {@link BackendChoice}'s name in lower case, so a new backend is a word here the day it is declared.
     */
    static BackendChoice backend(String name) throws UsageException {
        List<String> names = Arrays.stream(BackendChoice.values()).map(FusionArguments::word).toList();
        int i = names.indexOf(name);
        if (i >= 0) return BackendChoice.values()[i];
        String choices = String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
        throw new UsageException("--backend expects " + choices + ", got '" + Texts.printable(name) + "'");
    }

    private static String word(BackendChoice b) { return b.name().toLowerCase(Locale.ROOT); }
}
