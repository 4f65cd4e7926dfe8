package org.hostir.studio.bench.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.exec.cuda.CudaBackend;

/**
 * A configuration of the engine's GEMM that the like-with-like bench can time beside PyTorch's: {@link #OURS} is
 * the engine's own (cuBLASLt, the heuristic told the whole 32 MiB workspace) and the one the 3 % check is about;
 * the others vary one input of the algorithm's choice towards a path of PyTorch's, to see which choice matters.
 */
enum EngineGemm {
    /** The engine as it runs: cuBLASLt, heuristic with a 32 MiB workspace limit. */
    OURS("ours", true, 32L << 20),
    /** cuBLASLt told 1 MiB, PyTorch's CUBLASLT_WORKSPACE_SIZE default (its cuBLASLt path, bgemm_internal_cublaslt). */
    LT1M("ours-lt1m", true, 1L << 20),
    /** cublasGemmEx, the call torch.matmul makes for bf16 and fp32 by default (gemm_internal_cublas). */
    GEMMEX("ours-gemmex", false, 32L << 20);

    final String label;
    final boolean lt;
    final long limit;

    EngineGemm(String label, boolean lt, long limit) {
        this.label = label;
        this.lt = lt;
        this.limit = limit;
    }

    /** Switches the backend to this configuration (plans are kept per workspace limit). */
    void apply(CudaBackend backend) {
        backend.useCublasLt(lt);
        backend.setCublasLtWorkspaceLimit(limit);
    }

    /**
     * {@code --variants lt1m,gemmex}: the extra configurations, in order, each once; {@link #OURS} always comes
     * first. Unknown or repeated names throw with the valid ones.
     */
    static List<EngineGemm> parse(String list) {
        List<EngineGemm> out = new ArrayList<>(List.of(OURS));
        if (list == null || list.isBlank()) return out;
        for (String name : list.split(",", -1)) {
            EngineGemm g = switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "lt1m" -> LT1M;
                case "gemmex" -> GEMMEX;
                default -> throw new IllegalArgumentException("unknown variant '" + name.strip()
                        + "' (lt1m, gemmex)");
            };
            if (out.contains(g)) throw new IllegalArgumentException("variant " + name.strip() + " given twice");
            out.add(g);
        }
        return out;
    }
}
