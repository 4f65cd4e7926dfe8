# Sourced by the scripts that run on the GPU machine (gpu-run.sh, gpu-launch.sh, gemm-evidence.sh, gpu-traces.sh),
# from the repository root with .gpu/ (scripts/gpu-package.sh) carried along: the root as the working folder, NVLink
# multicast off for NCCL, PyTorch and NVSHMEM (the shared machines ask it), and the carried runtime's java (JAVA)
# with the engine's class path (CP).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
G=$ROOT/.gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
JAVA=("$G/rt/bin/java" --enable-native-access=ALL-UNNAMED -Djava.library.path="$G/lib/natives" -Dhirstudio.home="$ROOT" -Dhirstudio.repo="$ROOT")
CP="$G/engine:$G/lib/gson.jar:$G/lib/jgrapht.jar:$G/lib/sqlite-jdbc.jar:$G/lib/jcuda.jar"
