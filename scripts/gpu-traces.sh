#!/usr/bin/env bash
# Runs on the GPU machine (2 GPUs) with .gpu/ carried: the small real traces the Timeline's import and analysis
# tests use (issue 36): PyTorch profiler (Kineto) traces of the AG+GEMM baseline, Nsight Systems' SQLite export
# where nsys exists, and the Studio's own CUDA run of the same shape; all packed into $OUT/traces.tar.gz.
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
T=$(mktemp -d); M=${M:-8192}; K=${K:-4096}; N=${N:-4096}
nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
python3 -c 'import nvfuser; print("nvfuser", nvfuser.__version__)' 2>&1 | tail -1
command -v nsys && nsys --version
M=$M K=$K N=$N torchrun --nproc_per_node=2 scripts/torch_profile_traces.py "$T" 2>&1 | grep -v Warning | tail -20
if command -v nsys >/dev/null; then
    M=$M K=$K N=$N nsys profile -t cuda,nvtx,osrt -o "$T/nsys_ag_matmul" --export sqlite -f true \
        torchrun --nproc_per_node=2 scripts/torch_profile_traces.py "$T/nsys-kineto" 2>&1 | tail -5
    rm -rf "$T/nsys-kineto" "$T"/nsys_ag_matmul.nsys-rep
fi
java=("${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main)
"${java[@]}" run examples/ag_matmul_p2p_bf16.fusion --backend cuda --devices 2 --set M=$((M / 2)) --set K=$K --set N=$N \
    --iterations 3 --trace "$T/studio_ag_matmul_p2p_bf16_${M}x${K}x${N}_cuda.json" 2>&1 | tail -15
sed -i "s#\"$T/#\"#" "$T"/kineto_*.json   # traceName: the file name, not the machine's path
ls -la "$T"
tar -C "$T" -czf "$OUT/traces.tar.gz" . && ls -la "$OUT"
