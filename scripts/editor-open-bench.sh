#!/usr/bin/env bash
# The editor's opening benchmark outside the workbench (issue 35): a generated fusion of OPS ops opened in the graph
# viewer under Xvfb, OPENS times per JVM, in this tree and, with --base REV, in REV's UI code as well, the two
# alternated ROUNDS times (one JVM each per round), so that both see the same load of a shared machine. Per open: wall
# time to the first picture (every node laid out and painted) and to the check's end, and the CPU time of the UI
# thread and of the job threads (the layout) to the picture. Then medians of the warm opens (each JVM's first is
# cold: class loading and JIT) and of the cold ones. The workbench's own part of an opening (the Source page, markers,
# Outline) is EditorBenchmarkTest's, inside the workbench.
#
#   scripts/editor-open-bench.sh [--base REV] [--rounds N] [--ops N] [--opens N]
#
# REV's UI code is compiled against this tree's engine, so the two trees must not differ outside src/.../ui. It needs
# what scripts/compile-ui.sh needs (a filled local Maven repository) and xvfb-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
base="" rounds=3 ops=1000 opens=4
while [[ $# -gt 0 ]]; do
    case $1 in
        --base) base=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --opens) opens=$2; shift 2 ;;
        *) echo "usage: scripts/editor-open-bench.sh [--base REV] [--rounds N] [--ops N] [--opens N]" >&2; exit 2 ;;
    esac
done
command -v xvfb-run >/dev/null || { echo "editor-open-bench: needs xvfb-run" >&2; exit 2; }
scripts/compile-ui.sh >/dev/null
cp=$(scripts/compile-ui.sh --classpath)
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -x $j/bin/javac ]] && "$j/bin/javac" -version 2>&1 | grep -qE 'javac (2[5-9]|[3-9][0-9])' && { jdk=$j; break; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/editor-open-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# probe SIDE UI-CLASSES: compiles the probe of that side's opening order into $work/SIDE; prints its main class
probe() {
    local side=$1 ui=$2 main=OpenProbe
    grep -q 'public static Loaded load(' "$3/model/FusionCheck.java" || main=OpenProbeCheckFirst
    mkdir -p "$work/$side"
    "$jdk/bin/javac" -nowarn -proc:none -d "$work/$side" -cp "$ui:$cp" scripts/bench/GeneratedFusion.java \
        "scripts/bench/$main.java"
    echo "$main"
}
sides=(tree)
declare -A classes mains
classes[tree]=$root/.cache/ui-check/classes
mains[tree]=$(probe tree "${classes[tree]}" src/org/hostir/studio/ui/editor)
if [[ -n $base ]]; then
    git diff --quiet "$base" -- src ':(exclude)src/org/hostir/studio/ui' \
        || { echo "editor-open-bench: $base's engine differs from this tree's: compare trees with the same engine" >&2; exit 2; }
    mkdir -p "$work/base-src" "$work/base-ui"
    git archive "$base" src/org/hostir/studio/ui | tar -x -C "$work/base-src"
    "$jdk/bin/javac" -nowarn -proc:none -d "$work/base-ui" -cp "$cp" $(find "$work/base-src" -name '*.java')
    classes[base]=$work/base-ui
    mains[base]=$(probe base "${classes[base]}" "$work/base-src/src/org/hostir/studio/ui/editor")
    sides=(base tree)
fi
log=$work/opens.txt
for ((i = 1; i <= rounds; i++)); do
    for side in "${sides[@]}"; do
        echo "round $i $side: load $(cut -d' ' -f1-3 /proc/loadavg)"
        xvfb-run -a -s "-screen 0 1920x1200x24" "$jdk/bin/java" --enable-native-access=ALL-UNNAMED \
            -cp "$work/$side:${classes[$side]}:$cp" "org.hostir.studio.ui.editor.${mains[$side]}" "$ops" "$opens" "$side" \
            2>&1 | grep '^OPEN' | tee -a "$log"
    done
done
python3 - "$log" <<'PY'
import re, statistics, sys
rows = [dict(kv.split('=') for kv in line.split()[1:]) for line in open(sys.argv[1])]
for side in dict.fromkeys(r['side'] for r in rows):
    for label, pick in (('warm', lambda r: r['open'] != '0'), ('cold', lambda r: r['open'] == '0')):
        sel = [r for r in rows if r['side'] == side and pick(r)]
        if not sel: continue
        med = {k: statistics.median(int(r[k]) for r in sel) for k in ('first_picture_ms', 'checked_ms', 'ui_cpu_ms', 'jobs_cpu_ms')}
        print(f"{side:5} {label} (median of {len(sel)}): first picture {med['first_picture_ms']:.0f} ms, check done "
              f"{med['checked_ms']:.0f} ms; CPU to the picture: UI thread {med['ui_cpu_ms']:.0f} ms, layout (job threads) "
              f"{med['jobs_cpu_ms']:.0f} ms")
PY
