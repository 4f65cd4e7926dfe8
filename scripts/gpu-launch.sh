#!/usr/bin/env bash
# One process per GPU, as a launcher starts them: scripts/gpu-launch.sh N FILE.fusion [run options...]
# starts N JVMs of `hirstudio run FILE --launcher ...` with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and
# MASTER_PORT set as torchrun sets them, waits for all, prints each rank's output prefixed with its rank, and exits
# non-zero when any rank did. With LAUNCHER=torchrun it uses PyTorch's launcher instead:
#   python3 -m torch.distributed.run --standalone --nproc_per_node=N --no-python JAVA ... run FILE --launcher
# Runs on the GPU machine from the repository root with .gpu/ (scripts/gpu-package.sh) carried along.
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
(( $# >= 2 )) || { echo "usage: scripts/gpu-launch.sh N FILE.fusion [run options...]" >&2; exit 2; }
N=$1; FILE=$2; shift 2
JAVA+=(-cp "$CP" org.hostir.studio.cli.Main run "$FILE" --launcher "$@")
LOGS=$(mktemp -d)
if [[ ${LAUNCHER:-shell} == torchrun ]]; then
    python3 -m torch.distributed.run --standalone --nproc_per_node="$N" --no-python --log-dir "$LOGS/torchrun" \
        --redirects 3 "${JAVA[@]}" >"$LOGS/launcher.out" 2>&1
    rc=$?
    for r in $(seq 0 $((N - 1))); do
        f=$(find "$LOGS/torchrun" -path "*/$r/stdout.log" | head -1)
        e=$(find "$LOGS/torchrun" -path "*/$r/stderr.log" | head -1)
        cat "$f" "$e" 2>/dev/null | sed "s/^/[rank $r] /"
    done
    (( rc == 0 )) || { echo "torchrun exit $rc"; tail -5 "$LOGS/launcher.out"; }
    exit $rc
fi
PORT=${MASTER_PORT:-$((29600 + RANDOM % 1000))}
pids=()
for r in $(seq 0 $((N - 1))); do
    RANK=$r WORLD_SIZE=$N LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT \
        "${JAVA[@]}" >"$LOGS/rank$r.log" 2>&1 &
    pids+=($!)
done
rc=0
for r in "${!pids[@]}"; do
    wait "${pids[$r]}" || rc=1
done
for r in $(seq 0 $((N - 1))); do sed "s/^/[rank $r] /" "$LOGS/rank$r.log"; done
exit $rc
