package org.hostir.studio.exec.cuda;

import java.util.Locale;

/**
 * What cuBLASLt's heuristic chose for one matmul, read back from its cublasLtMatmulAlgo_t (the
 * CUBLASLT_ALGO_CONFIG_* attributes 0-8, -1 where the library did not answer) with the workspace it needs, the
 * limit it was given and its waves count: enough to tell whether two sides launch the same kernel. Tile, stages and
 * cluster ids are printed with their cublasLt.h names where the id is one of the long-standing ones, else as the id.
 */
public record AlgoConfig(int algoId, int tile, int splitK, int reduction, int swizzle, int customOption, int stages,
                         int innerShape, int cluster, long workspace, long limit, float waves) {
    /** Byte size of each attribute, in attribute order (INNER_SHAPE_ID and CLUSTER_SHAPE_ID are uint16). */
    static final int[] ATTRIBUTES = {4, 4, 4, 4, 4, 4, 4, 2, 2};

    private static final String[] TILES = {"undefined", "8x8", "8x16", "16x8", "8x32", "16x16", "32x8", "8x64",
        "16x32", "32x16", "64x8", "32x32", "32x64", "64x32", "32x128", "64x64", "128x32", "64x128", "128x64",
        "64x256", "128x128", "256x64", "64x512", "128x256", "256x128", "512x64", "64x96", "96x64", "96x128",
        "128x160", "160x128", "192x128", "128x192", "128x96", "32x256", "256x32"};
    private static final String[] STAGES = {"undefined", "16x1", "16x2", "16x3", "16x4", "16x5", "16x6", "32x1",
        "32x2", "32x3", "32x4", "32x5", "32x6", "64x1", "64x2", "64x3", "64x4", "64x5", "64x6", "128x1", "128x2",
        "128x3", "128x4", "128x5", "128x6", "32x10", "8x4", "16x10", "8x5", null, null, "8x3", "8xAUTO", "16xAUTO",
        "32xAUTO", "64xAUTO", "128xAUTO"};
    private static final String[] CLUSTERS = {"auto", null, "1x1x1", "2x1x1", "4x1x1", "1x2x1", "2x2x1", "4x2x1",
        "1x4x1", "2x4x1", "4x4x1", "8x1x1", "1x8x1", "8x2x1", "2x8x1", "16x1x1", "1x16x1"};

    /** {@code names[id]}, or {@code #id} where the id is past the table or a gap in it. */
    static String name(String[] names, int id) {
        return id >= 0 && id < names.length && names[id] != null ? names[id] : "#" + id;
    }

    /** One line: {@code algo 66 tile 256x128 stages 64xAUTO cluster 1x2x1 splitK 1 ...}. */
    public String describe() {
        return String.format(Locale.ROOT, "algo %d tile %s stages %s cluster %s splitK %d reduction %d swizzle %d"
                        + " custom %d inner %d, workspace %d of %d B, waves %.2f", algoId, name(TILES, tile),
                name(STAGES, stages), name(CLUSTERS, cluster), splitK, reduction, swizzle, customOption, innerShape,
                workspace, limit, waves);
    }
}
