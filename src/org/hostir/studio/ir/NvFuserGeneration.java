package org.hostir.studio.ir;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The nvFuser revisions whose Host IR the Studio reads and prints, declared once: every spelling that differs
 * between them is a property here, and the {@code --nvfuser} flag, the dump reader's detection and the printer
 * derive from it. The trees are the same across generations; node kinds that only a newer nvFuser has
 * ({@code ShardByStream}, {@code hir::ForLoop}'s {@code from .. to}) print the same in every generation.
 * Sources: docs/conformance.md ("nvFuser 2026-04 dialect"), docs/host-ir-dump-format.md.
 */
public enum NvFuserGeneration {
    /**
     * Seed 002 (nvFuser PR #3736, January 2025): the slice op is {@code select}, a stream axis prints as
     * {@code iStream7}, and a Communication has no {@code backend=} field. Read and printed, never lowered to.
     */
    EARLY_2025("2025-01", "PR #3736", "select", "Stream", false, false),
    /** The seeds' revision 43b9a1aa5 (June 2025): {@code iStreamIdx2}, {@code SetCurrentStream to Stream 1}. */
    V2025_06("2025-06", "43b9a1aa5", "HirAliasSelect", "StreamIdx", true, false),
    /**
     * nvFuser main 81c4b22fd (2026-04-03): {@code istreamIdx7} (csrc/type.cpp:781, since #5096), and the host
     * nodes printed as calls, {@code SetCurrentStream(Stream i535)}, {@code Wait(Communication 272)},
     * {@code Synchronize(Stream ..)}, {@code Stream 0x.. = GetCurrentStream()}, {@code Deallocate} on three lines
     * (csrc/host_ir/ir.cpp:173-305, since #5746).
     */
    V2026_04("2026-04", "81c4b22fd", "HirAliasSelect", "streamIdx", true, true);

    private final String label;
    private final String revision;
    private final String selectName;
    private final String streamAxisName;
    private final boolean printsBackend;
    private final boolean callSyntax;

    NvFuserGeneration(String label, String revision, String selectName, String streamAxisName,
                      boolean printsBackend, boolean callSyntax) {
        this.label = label;
        this.revision = revision;
        this.selectName = selectName;
        this.streamAxisName = streamAxisName;
        this.printsBackend = printsBackend;
        this.callSyntax = callSyntax;
    }

    /** As the user names it: {@code --nvfuser 2026-04}. */
    public String label() { return label; }

    /** The nvFuser commit (or PR) whose printing this generation follows. */
    public String revision() { return revision; }

    /** The op name of HirAliasSelect. */
    public String selectName() { return selectName; }

    /** What a Stream-parallel iter domain prints between its iter type letter and its id. */
    public String streamAxisName() { return streamAxisName; }

    /** Whether a Communication prints {@code , backend=NCCL}. */
    public boolean printsBackend() { return printsBackend; }

    /**
     * Whether the stream and wait nodes print as calls ({@code SetCurrentStream(Stream 1)}, {@code Wait(Communication
     * 3)}, {@code Stream 0x1 = GetCurrentStream()}) rather than words ({@code SetCurrentStream to Stream 1}).
     */
    public boolean callSyntax() { return callSyntax; }

    /** Whether the Studio lowers as this revision does (the {@code --nvfuser} choices); the early one is read only. */
    public boolean lowerable() { return this != EARLY_2025; }

    /** The newest generation: the default of every command. */
    public static NvFuserGeneration newest() { return V2026_04; }

    /** The generations a lowering can target, oldest first. */
    public static List<NvFuserGeneration> lowerableValues() {
        return Arrays.stream(values()).filter(NvFuserGeneration::lowerable).toList();
    }

    /** The lowerable generation labelled {@code label} ({@code 2025-06}, {@code 2026-04}). */
    public static Optional<NvFuserGeneration> ofLabel(String label) {
        return lowerableValues().stream().filter(g -> g.label.equals(label)).findFirst();
    }
}
