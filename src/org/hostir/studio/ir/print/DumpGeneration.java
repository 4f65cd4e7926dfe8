package org.hostir.studio.ir.print;

/**
 * The spellings of {@code NVFUSER_DUMP=host_ir} across nvFuser revisions, so a dump read from text prints back
 * as it was written. The trees are the same; only words differ (docs/host-ir-dump-format.md).
 */
public enum DumpGeneration {
    /** Seeds 000, 001 and seed 003's Scatter pipeline (nvFuser of mid 2025): what the Studio's lowering prints. */
    CURRENT("HirAliasSelect", "StreamIdx", true),
    /**
     * Seed 002 (nvFuser PR #3736, January 2025): the slice op is {@code select}, a stream axis prints as
     * {@code iStream7}, and a Communication has no {@code backend=} field.
     */
    EARLY_2025("select", "Stream", false);

    private final String selectName;
    private final String streamAxisName;
    private final boolean printsBackend;

    DumpGeneration(String selectName, String streamAxisName, boolean printsBackend) {
        this.selectName = selectName;
        this.streamAxisName = streamAxisName;
        this.printsBackend = printsBackend;
    }

    /** The op name of HirAliasSelect. */
    public String selectName() { return selectName; }

    /** What a Stream-parallel iter domain prints between its iter type letter and its id. */
    public String streamAxisName() { return streamAxisName; }

    /** Whether a Communication prints {@code , backend=NCCL}. */
    public boolean printsBackend() { return printsBackend; }
}
