#!/usr/bin/env bash
# Behaviour check for refactorings: runs `check`, `lower` and `run` of the engine's command line on every example
# (and a few bad inputs) with the current tree and with a base revision, and diffs the outputs. Timings are the
# only thing masked (numbers on the lines that report times), everything else must be byte-identical.
#   scripts/compare-cli.sh [BASE_REV]        (default: origin/main if it exists, else HEAD)
# Exit 0 when identical; otherwise prints the diff and exits 1.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${1:-$(git -C "$root" rev-parse --verify -q origin/main || git -C "$root" rev-parse HEAD)}
work=$(mktemp -d)
# COMPARE_CLI_KEEP=1 keeps the recorded outputs (before/, after/) and says where they are
trap 'git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
      if [[ -n ${COMPARE_CLI_KEEP:-} ]]; then echo "compare-cli: outputs kept in $work"; else rm -rf "$work"; fi' EXIT

git -C "$root" worktree add -q --detach "$work/base" "$base"
# the base tree shares the fetched tools and libraries of this one
mkdir -p "$work/base/.cache"
for d in maven lib; do [[ -e $root/.cache/$d ]] && ln -s "$root/.cache/$d" "$work/base/.cache/$d"; done

# masks the figures of the timing lines (they differ from run to run) and the trace's temporary path; drops the
# lines whose number depends on timing (warm-ups, timed iterations under the time budget) and masks the unit a
# duration is printed in (us or ms by its size)
mask() {
    sed -E -e '/^(iteration |warm-up |timing stopped)/d' -e '/^time: / s/iterations?/iterations/' \
        -e '/^(time: |overlap: |host dispatch|validated in|lowered |simulated: |\/\/ pass )/ s/[0-9]+(\.[0-9]+)?/#/g' \
        -e '/^(overlap: |time: )/ s/ (ms|us|s)\b/ U/g' \
        -e "s#$work/[a-z]+#TMP#g"
}

cases() {
    local ex
    for ex in examples/*.fusion examples/*/*.fusion; do
        echo "check $ex"
        echo "check $ex --devices 4"
        echo "lower $ex --devices 4 --passes"
        echo "lower $ex --devices 2 --rank 1 --diff --option allgather=broadcast"
        echo "lower $ex --devices 2 --option offsetStreamIndexingByRank=true --option forwardLocalShard=true"
        echo "run $ex --devices 2 --validate --trace TRACE"
        echo "run $ex --devices 4 --validate --option insertDeallocations=true --streams 2"
    done
    echo "check examples/does-not-exist.fusion"
    echo "lower examples/seeds/ag_matmul.fusion --option allgather=magic"
    echo "lower examples/seeds/ag_matmul.fusion --option nosuch=1"
    echo "run examples/seeds/ag_matmul.fusion --set M=3 --validate"
}

java=java
for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -x $j/bin/java ]] && "$j/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])' && { java=$j/bin/java; break; }
done

record() { # tree outdir
    local tree=$1 out=$2 n=0 line cp
    mkdir -p "$out"
    # a copy of the compiled engine, so that a rebuild of the tree meanwhile cannot mix two versions
    cp=$(cd "$tree" && ./hirstudio classpath | tail -1)
    cp -r "${cp%%:*}" "$out.classes"
    cp="$out.classes:${cp#*:}"
    while read -r line; do
        n=$((n + 1))
        local args=${line//TRACE/$work/trace.json}
        {
            echo "\$ $line"
            (cd "$tree" && "$java" -Dhirstudio.home="$tree" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 \
                -cp "$cp" org.hostir.studio.cli.Main $args 2>&1; echo "exit $?") | mask
        } > "$out/$(printf %03d $n).txt" || true
    done < <(cases)
    rm -rf "$out.classes"
}

echo "compare-cli: base $(git -C "$root" rev-parse --short "$base") vs working tree"
record "$work/base" "$work/before"
record "$root" "$work/after"
if diff -ru "$work/before" "$work/after"; then
    echo "compare-cli: identical ($(ls "$work/after" | wc -l) commands)"
else
    echo "compare-cli: outputs differ" >&2
    exit 1
fi
