#!/usr/bin/env bash
# Issue 38.2, on the GPU machine from the repository root with .gpu/ carried: which GEMM each side of the
# like-with-like bench runs on the small shapes, and why. Writes under $OUT:
#   libs.txt        the cuBLAS(Lt) files the dynamic loader offers and the ones PyTorch maps, with versions
#   ltlog.tar.gz    cuBLASLt's own log (CUBLASLT_LOG_LEVEL=5) of a short like-with-like pass, one file per process
#   ltlog-algos.txt the algorithms of the cublasLtMatmul calls in those logs, pointers elided, counted
#   evidence.log    `bench agmm --like-with-like --devices 1` with the engine's GEMM in three configurations
#                   (ours, ours-lt1m, ours-gemmex) beside torch.matmul: shape 4 in three runs, shape 3 in one
#   samelib.log     (only where PyTorch's cuBLASLt is another file than the engine's) shape 4 with the engine
#                   loading PyTorch's cuBLAS and cuBLASLt (HIRSTUDIO_LIBCUBLAS, HIRSTUDIO_LIBCUBLASLT)
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
OUT=${OUT:-$ROOT/target/gpu-out}
mkdir -p "$OUT"
BENCH=("${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main bench agmm --like-with-like --devices 1)
# PyTorch's own files (after one bf16 product), printed as full paths here and shortened in the log
TORCHLIBS=$(python3 - <<'PY'
import torch
a = torch.ones(64, 64, device="cuda", dtype=torch.bfloat16)
torch.matmul(a, a); torch.cuda.synchronize()
seen = []
for line in open("/proc/self/maps"):
    p = line.split()[-1]
    for lib in ("libcublas.so", "libcublasLt.so"):
        if "/" in p and p.rsplit("/", 1)[1].startswith(lib) and p not in seen:
            seen.append(p)
print(" ".join(seen))
PY
)
TLT=$(tr ' ' '\n' <<<"$TORCHLIBS" | grep '/libcublasLt' | head -1)
TBLAS=$(tr ' ' '\n' <<<"$TORCHLIBS" | grep '/libcublas\.' | head -1)
SYSLT=$(ldconfig -p | grep -m1 'libcublasLt.so.13 ' | sed 's/.*=> //')
{
    echo "dynamic loader: $(ldconfig -p | grep -E 'libcublas(Lt)?\.so\.1[23] ' | sed 's/.*=> //' | xargs -r readlink -f | xargs -r -n1 basename | tr '\n' ' ')"
    echo "torch maps:     $(for f in $TORCHLIBS; do basename "$(readlink -f "$f")"; done | tr '\n' ' ')"
    echo "same cuBLASLt file: $([[ -n $SYSLT && $(readlink -f "$SYSLT") == $(readlink -f "$TLT") ]] && echo yes || echo no)"
    python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'preferred blas', torch.backends.cuda.preferred_blas_library())"
} 2>&1 | tee "$OUT/libs.txt"
# 1. cuBLASLt's log of a short pass (both processes inherit the variables; %i is the process id)
LOGDIR=$(mktemp -d)
CUBLASLT_LOG_LEVEL=5 CUBLASLT_LOG_FILE="$LOGDIR/ltlog-%i.txt" "${BENCH[@]}" --shapes 4,3 --runs 1 --rounds 2 \
    --warmup 1 --repetitions 2 --variants lt1m,gemmex > "$OUT/ltlog-bench.txt" 2>&1
grep -h -i 'matmul' "$LOGDIR"/ltlog-*.txt | grep -i 'algo' | sed -E 's/0x[0-9a-f]+/P/g; s/^\[[^]]*\]//' \
    | sort | uniq -c | sort -rn | head -60 > "$OUT/ltlog-algos.txt"
(cd "$LOGDIR" && tar czf "$OUT/ltlog.tar.gz" ltlog-*.txt)
echo "cuBLASLt log: $(cat "$LOGDIR"/ltlog-*.txt | wc -l) lines; algorithms:"; head -20 "$OUT/ltlog-algos.txt"
# 2. the evidence run: three engine configurations beside torch.matmul, shape 4 in three runs of 8 rounds (each
#    side first twice a run), then shape 3 in one run of 4 rounds
{ "${BENCH[@]}" --shapes 4 --runs 3 --rounds 8 --variants lt1m,gemmex
  "${BENCH[@]}" --shapes 3 --runs 1 --rounds 4 --variants lt1m,gemmex; } 2>&1 | tee "$OUT/evidence.log"
# 3. the engine on PyTorch's own library files, where they differ from the loader's
if [[ -n $TLT && $(readlink -f "${SYSLT:-none}") != $(readlink -f "$TLT") ]]; then
    HIRSTUDIO_LIBCUBLASLT=$TLT HIRSTUDIO_LIBCUBLAS=$TBLAS "${BENCH[@]}" --shapes 4 --runs 3 --rounds 6 2>&1 \
        | tee "$OUT/samelib.log"
fi
