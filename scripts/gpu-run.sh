#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .gpu/ (scripts/gpu-package.sh) carried along:
#   scripts/gpu-run.sh [test] [examples] [launcher] [npy] [moe] [bench] [like] [validate] [sizes] [scale]
#   (default: test examples bench; DEVICES=N sets the devices of test/examples/launcher/npy, default 2 or 1;
#   EXAMPLES=REGEX keeps the examples whose path matches, for examples/launcher/npy/sizes, e.g. EXAMPLES='ops/')
# test: the CUDA JUnit suite (and the CLI tests); examples: every example through
# `hirstudio run --backend cuda --devices 2 --validate`; launcher: every example with one process per GPU
# (scripts/gpu-launch.sh, each rank validating its shard), and two through torchrun; npy: every example with
# --save-npy, checked by PyTorch (scripts/check_npy_torch.py); bench: `hirstudio bench agmm`, PyTorch included;
# like (issue 38.2): `bench agmm --like-with-like --devices $DEV`, our GEMM and torch.matmul in interleaved rounds
# with the GPUs' clocks recorded, three runs and their within-3 % check (LIKE_ARGS: more options, LIKE_TAG: a
# suffix of the log's name);
# validate (issue 17 item 5): `run` (default validation, sampled at these sizes) on the four AG+GEMM bench shapes,
# printing how long validation took and its line, then BenchShapeValidationTest, which injects faults into the
# same runs' outputs and needs each to FAIL. The reference's GEMM is the machine's OpenBLAS if the dynamic loader
# finds libopenblas.so.0 there (HIRSTUDIO_LIBBLAS names another file), else the Java kernel on all cores.
# Output goes to stdout and, where OUT is set, to $OUT/*.log.
set -uo pipefail
source "$(dirname "$0")/gpu-env.sh"
LOGS=${OUT:-$ROOT/target/gpu-out}
mkdir -p "$LOGS"
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
(( GPUS >= 1 )) || { echo "gpu-run: nvidia-smi lists no GPU" >&2; exit 2; }
DEV=${DEVICES:-$(( GPUS >= 2 ? 2 : 1 ))}   # DEVICES=4 runs test/examples on four GPUs
echo "gpu-run: $GPUS GPU(s), runs on $DEV"
# the examples a step runs, sorted, filtered by EXAMPLES
examples() { find examples "$@" -name '*.fusion' | LC_ALL=C sort | grep -E -- "${EXAMPLES:-.}"; }
steps=("$@")
(( ${#steps[@]} )) || steps=(test examples bench)
rc=0
for step in "${steps[@]}"; do
    case $step in
        test)
            "${JAVA[@]}" -Dhirstudio.test.devices=$DEV -jar "$G/lib/junit-console.jar" execute --disable-banner --details=flat --disable-ansi-colors \
                --class-path "$G/test:$CP" --select-class org.hostir.studio.tests.exec.CudaBackendTest --select-class org.hostir.studio.tests.exec.CudaSingleGpuTest \
                --select-class org.hostir.studio.tests.exec.RunCommandTest --select-class org.hostir.studio.tests.exec.CudaLauncherTest \
                --select-class org.hostir.studio.tests.exec.OutOfMemoryTest --select-class org.hostir.studio.tests.exec.moe.CudaMoeKernelsTest \
                --select-class org.hostir.studio.tests.exec.moe.IndexKernelSourceTest --select-class org.hostir.studio.tests.exec.CudaDebugTest 2>&1 | tee "$LOGS/test.log"
            (( PIPESTATUS[0] == 0 )) || rc=1
            # failure handling in a JVM of its own: aborted communicators are not reused
            timeout 120 "${JAVA[@]}" -jar "$G/lib/junit-console.jar" execute --disable-banner --details=flat \
                --disable-ansi-colors --class-path "$G/test:$CP" --select-class org.hostir.studio.tests.exec.CudaFailureTest 2>&1 \
                | tee "$LOGS/test-failure.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        examples)
            for f in $(examples); do
                t0=$(date +%s.%N)
                line=$("${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main run "$f" --backend cuda --devices $DEV \
                    --validate --iterations 3 --warmup 1 2>&1)
                code=$?
                printf '%-48s exit %d  wall %5.1f s  %s | %s\n' "$f" "$code" "$(awk "BEGIN { print $(date +%s.%N) - $t0 }")" \
                    "$(grep -m1 '^time:' <<<"$line")" "$(grep -m1 -E '^validation:|^error:' <<<"$line")"
                (( code == 0 || code == 2 )) || rc=1
            done 2>&1 | tee "$LOGS/examples.log" ;;
        launcher)
            for f in $(examples); do
                line=$(scripts/gpu-launch.sh $DEV "$f" --validate --iterations 3 --warmup 1 2>&1)
                code=$?
                printf '%-48s exit %d  %s | %s\n' "$f" "$code" "$(grep '^\[rank 0\] time:' <<<"$line" | head -1)" \
                    "$(grep -E '\] (validation:|error:)' <<<"$line" | tr '\n' ' ')"
                (( code == 0 )) || grep -q 'mesh.device-range' <<<"$line" || rc=1
            done 2>&1 | tee "$LOGS/launcher.log"
            for f in examples/seeds/ag_matmul.fusion examples/seeds/matmul_rs_through_bcast.fusion; do
                echo "torchrun: $f"
                LAUNCHER=torchrun scripts/gpu-launch.sh $DEV "$f" --validate 2>&1 | grep -E 'launcher:|time:|validation:|error:'
                (( PIPESTATUS[0] == 0 )) || rc=1
            done 2>&1 | tee -a "$LOGS/launcher.log" ;;
        npy)
            NPY=$(mktemp -d)
            manifests=()
            for f in $(examples); do
                d=$NPY/$(basename "$f" .fusion)
                "${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main run "$f" --backend cuda --devices $DEV --save-npy "$d" \
                    >/dev/null 2>&1 && manifests+=("$d/manifest.json")
            done
            scripts/gpu-launch.sh $DEV examples/seeds/ag_matmul.fusion --save-npy "$NPY/launched" 2>&1 | grep -E "error|refus" | head -5
            manifests+=("$NPY"/launched/manifest*.json)
            # NPY stands for the temporary folder: logs kept in docs/ name no machine's paths
            python3 scripts/check_npy_torch.py "${manifests[@]}" 2>&1 | sed "s|$NPY/|NPY/|g" | tee "$LOGS/npy.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        moe)
            # issue 39: each examples/moe/*.fusion on CUDA, validated, its Chrome trace (bytes per rank, rows per
            # expert) and outputs saved under $LOGS/moe/, then the numpy oracle (scripts/numpy_oracle.py) on them
            mkdir -p "$LOGS/moe"
            for f in examples/moe/*.fusion; do
                n=$(basename "$f" .fusion)
                line=$("${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main run "$f" --backend cuda --devices $DEV \
                    --validate --trace "$LOGS/moe/$n.trace.json" --save-npy "$LOGS/moe/$n.npy" 2>&1)
                code=$?
                printf '%-40s exit %d  %s | %s\n' "$f" "$code" "$(grep -m1 '^time:' <<<"$line")" \
                    "$(grep -m1 -E '^validation:|^error:' <<<"$line")"
                (( code == 0 )) || echo "moe: $f exit $code: $line" | tail -5
            done 2>&1 | tee "$LOGS/moe.log"
            for f in examples/moe/*.fusion; do echo "$LOGS/moe/$(basename "$f" .fusion).npy/manifest.json"; done \
                > "$LOGS/moe/manifests.txt"
            python3 scripts/numpy_oracle.py "@$LOGS/moe/manifests.txt" 2>&1 | sed "s|$LOGS/||g" | tee "$LOGS/moe-oracle.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        bench)
            if (( DEV == 2 )); then bench=(bench agmm --devices 2); else bench=(bench agmm --devices 1 --gemm); fi
            "${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main "${bench[@]}" 2>&1 | tee "$LOGS/bench.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        like)
            # LIKE_ARGS adds options, e.g. LIKE_ARGS='--shapes 4 --variants lt1m,gemmex'
            "${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main bench agmm --like-with-like --devices $DEV ${LIKE_ARGS:-} 2>&1 \
                | tee "$LOGS/like-with-like-$DEV${LIKE_TAG:-}.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        validate)
            share=(); (( DEV == 2 )) || share=(--share-gpus --option backend=cuda)   # one GPU: copy-engine P2P, no NCCL
            tmp=$(mktemp -d)
            sed 's/"float"/"bfloat16"/g' examples/seeds/ag_matmul_p2p.fusion > "$tmp/ag_matmul_p2p_bf16.fusion"
            for shape in "float 32768 32768 1024" "bfloat16 32768 8192 8192" "bfloat16 16384 8192 4096" \
                    "bfloat16 8192 4096 4096"; do
                read -r dtype m k n <<<"$shape"
                f=examples/seeds/ag_matmul_p2p.fusion; [[ $dtype == float ]] || f=$tmp/ag_matmul_p2p_bf16.fusion
                echo "validate: $dtype M=$m K=$k N=$n"
                "${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main run "$f" --backend cuda --devices 2 "${share[@]}" \
                    --set M=$((m / 2)) --set K=$k --set N=$n --iterations 5 --warmup 1 2>&1 \
                    | grep -E '^(time:|validated in|validation:|error:)'
                (( PIPESTATUS[0] == 0 )) || rc=1
            done 2>&1 | tee "$LOGS/validate.log"
            "${JAVA[@]}" -jar "$G/lib/junit-console.jar" execute --disable-banner --details=flat --disable-ansi-colors \
                --class-path "$G/test:$CP" --select-class org.hostir.studio.tests.exec.BenchShapeValidationTest 2>&1 \
                | tee -a "$LOGS/validate.log"
            (( PIPESTATUS[0] == 0 )) || rc=1 ;;
        sizes)
            # every example (the conformance and communication cases aside) at realistic sizes: its M, K, N, H
            # symbols at 4096, validated by default (sampled past 2^22 elements)
            share=(); (( DEV == 2 )) || share=(--share-gpus --option backend=cuda)
            for f in $(examples -maxdepth 2 -not -path '*/conformance/*' -not -path '*/communication/*'); do
                sets=()
                for sym in M K N H; do grep -q "\"$sym\": *[0-9]" "$f" && sets+=(--set "$sym=4096"); done
                line=$("${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main run "$f" --backend cuda --devices 2 \
                    "${share[@]}" "${sets[@]}" --iterations 3 --warmup 1 2>&1)
                code=$?
                printf '%-44s %s exit %d  %s | %s | %s\n' "$f" "${sets[*]}" "$code" "$(grep -m1 '^time:' <<<"$line")" \
                    "$(grep -m1 '^validated in' <<<"$line")" "$(grep -m1 -E '^validation:|^error:' <<<"$line")"
                (( code == 0 || code == 2 )) || rc=1
            done 2>&1 | tee "$LOGS/sizes.log" ;;
        scale)
            # issue 21 item 4: `bench agmm` (PyTorch baseline included) at D = 2, 4, 8 as far as the machine has GPUs
            for d in 8 4 2; do   # the largest first: the new figures if the time runs out
                (( d <= GPUS )) || continue
                echo "scale: bench agmm --devices $d"
                "${JAVA[@]}" -cp "$CP" org.hostir.studio.cli.Main bench agmm --devices $d 2>&1 | tee "$LOGS/scale-$d.log"
                (( PIPESTATUS[0] == 0 )) || rc=1
            done ;;
        *) echo "gpu-run: unknown step $step (test, examples, sizes, launcher, npy, bench, like, validate, scale)" >&2; exit 2 ;;
    esac
done
exit $rc
