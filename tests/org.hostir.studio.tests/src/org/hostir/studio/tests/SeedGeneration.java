package org.hostir.studio.tests;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.StreamParallelTypePass;
import org.hostir.studio.lower.ValidatePass;

/**
 * The tests written before the nvFuser generation became a choice test the seeds' (2025-06); the command line's and
 * the options' default is the newest. These helpers name the seeds' generation where a test names none, so those
 * tests run as they were written; a test of the newest generation names it ({@code --nvfuser 2026-04}).
 */
public final class SeedGeneration {
    /**
     * The generation named: the seeds' unless {@code -Dhirstudio.tests.nvfuser=2026-04} asks for another (to run
     * the generated spaces, {@code NumpyOracleTest} and the property tests, against the newest lowering).
     */
    private static final String LABEL = System.getProperty("hirstudio.tests.nvfuser",
            NvFuserGeneration.V2025_06.label());

    /**
     * Whether the newest generation's runs take nvFuser's {@code host_ir_lowering} path
     * ({@code -Dhirstudio.tests.hostIrLowering=true}); off by default, as in nvFuser.
     */
    private static final String HOST_IR = System.getProperty("hirstudio.tests.hostIrLowering", "false");

    /** Whether these tests take nvFuser's {@code host_ir_lowering} path where a test names none. */
    public static boolean hostIrLowering() { return Boolean.parseBoolean(HOST_IR); }

    /** The generation these tests name where a test names none. */
    public static NvFuserGeneration generation() { return NvFuserGeneration.ofLabel(LABEL).orElseThrow(); }

    /**
     * Whether a generated space should vary {@code key}: not the generation and its path (one per run, as
     * {@code -Dhirstudio.tests.nvfuser} says), nor an option the generation of the run does not have, nor the
     * AG+GEMM schedule (AgGemmScheduleTest covers it).
     */
    public static boolean varied(String key) {
        if (key.equals(ValidatePass.NVFUSER.key()) || key.equals(ValidatePass.HOST_IR_LOWERING.key())) return false;
        // the AG+GEMM schedule is a combination of options varied one by one; beside them it is refused by design
        if (key.equals(StreamParallelTypePass.AG_GEMM_SCHEDULE.key())) return false;
        return !key.equals(StreamParallelTypePass.INTER_STREAM_SYNCHRONIZATION.key())
                || generation() != NvFuserGeneration.V2025_06;
    }

    /** The commands that lower, and so take {@code --nvfuser}. */
    private static final Set<String> LOWERING = Set.of("check", "lower", "run", "diff", "sweep", "debug");

    private SeedGeneration() {}

    /** {@code args} with {@code --nvfuser 2025-06} after a lowering command that names no generation. */
    public static String[] pin(String... args) {
        if (args.length == 0 || !LOWERING.contains(args[0])) return args;
        for (String a : args) {
            if (a.startsWith(RunCommandLine.NVFUSER) || a.startsWith(ValidatePass.NVFUSER.key() + "=")) return args;
        }
        List<String> out = new ArrayList<>(List.of(args));
        out.addAll(1, List.of(RunCommandLine.NVFUSER, LABEL));
        if (generation() != NvFuserGeneration.V2025_06) {
            out.addAll(3, List.of("--option", ValidatePass.HOST_IR_LOWERING.key() + "=" + HOST_IR));
        }
        return out.toArray(String[]::new);
    }

    /** Options from {@code pairs}, of the seeds' generation unless they name one. */
    public static LoweringOptions options(Map<String, String> pairs) {
        Map<String, String> all = new LinkedHashMap<>(pairs);
        all.putIfAbsent(ValidatePass.NVFUSER.key(), LABEL);
        if (!all.get(ValidatePass.NVFUSER.key()).equals(NvFuserGeneration.V2025_06.label())) {
            all.putIfAbsent(ValidatePass.HOST_IR_LOWERING.key(), HOST_IR);
        }
        return LoweringOptions.parse(all);
    }

    /** The defaults of the seeds' generation. */
    public static final LoweringOptions DEFAULTS = options(Map.of());
}
