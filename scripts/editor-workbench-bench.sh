#!/usr/bin/env bash
# EditorBenchmarkTest inside the workbench (issue 35), this tree's code against REV's, alternated: one JVM per side
# per round, so that both sides see the same load of a shared machine. It reuses the test runtime that a Tycho run
# of the benchmark left (`./hirstudio test -Dtest=EditorBenchmarkTest ...`: target/work's configuration, the test
# bundle's classes) and swaps in, per side, the Studio bundle with that side's classes (src/ compiled by javac; the
# bundle's resources, plugin.xml included, are the Tycho run's). Prints each JVM's BENCH lines, then per side the
# medians over every open after each JVM's first (cold) one, of the wall time to the first picture, the UI thread's
# CPU to it and the layout thread's CPU; and the same figures for the cold opens (each JVM's first).
#
#   scripts/editor-workbench-bench.sh --base REV [--rounds N] [--opens N] [--cold-after S] [--jfr DIR]
#
# --cold-after S: the 1,000-op benchmark alone, each JVM's first (cold) open S seconds after the test starts, as a
# person's first open a while after the Studio started (what the Studio warms in the background by then counts).
# --jfr DIR: each JVM also records a flight recording into DIR (side-round.jfr). It needs what compile-ui.sh needs
# and xvfb-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
base="" rounds=3 opens=4 jfr="" cold=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --base) base=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --opens) opens=$2; shift 2 ;;
        --jfr) jfr=$(realpath -m "$2"); shift 2 ;;
        --cold-after) cold=(-Dhirstudio.bench.coldAfter=$(( $2 * 1000 ))); shift 2 ;;
        *) echo "usage: scripts/editor-workbench-bench.sh --base REV [--rounds N] [--opens N] [--cold-after S] [--jfr DIR]" >&2; exit 2 ;;
    esac
done
[[ -n $base ]] || { echo "editor-workbench-bench: --base REV is required" >&2; exit 2; }
tests=$root/tests/org.hostir.studio.ui.tests/target
runtime=$tests/work
jar=$root/target/org.hostir.studio-1.0.0-SNAPSHOT.jar
[[ -f $runtime/configuration/config.ini && -f $tests/surefire.properties && -f $jar ]] || {
    echo "editor-workbench-bench: no test runtime: run ./hirstudio test -Dtest=EditorBenchmarkTest once first" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "editor-workbench-bench: needs xvfb-run" >&2; exit 2; }
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -x $j/bin/javac ]] && "$j/bin/javac" -version 2>&1 | grep -qE 'javac (2[5-9]|[3-9][0-9])' && { jdk=$j; break; }
done
launcher=$(ls "${MAVEN_REPO:-$HOME/.m2/repository}"/org/eclipse/platform/org.eclipse.equinox.launcher/*/org.eclipse.equinox.launcher-*.jar | tail -1)
# the classpath the bundle compiles against: the Eclipse jars and the engine's libraries, not this tree's classes
cp=$(scripts/compile-ui.sh --classpath | tr ':' '\n' | grep -v '/\.cache/engine/' | paste -sd:)
work=$(mktemp -d "${TMPDIR:-/tmp}/editor-workbench-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# a copy of the runtime and of the test bundle, so that a Tycho build (which cleans target/) may run meanwhile
testproject=$root/tests/org.hostir.studio.ui.tests
mkdir -p "$work/rt/tb/target"
cp -r "$runtime" "$work/rt/work"
cp -r "$testproject/META-INF" "$testproject/build.properties" "$work/rt/tb/"
cp -r "$tests/classes" "$work/rt/tb/target/classes"
cp "$jar" "$work/rt/bundle.jar"
for f in "$work/rt/work/configuration/config.ini" "$work/rt/work/dev.properties"; do
    sed -i -e "s#$runtime#$work/rt/work#g" -e "s#$testproject#$work/rt/tb#g" "$f"
done
sed -e "s#$testproject#$work/rt/tb#g" "$tests/surefire.properties" > "$work/rt/surefire.properties"
runtime=$work/rt/work
# side NAME SRC-DIR: that side's bundle (the Tycho jar with SRC-DIR's classes) and its configuration
side() {
    local name=$1 src=$2
    mkdir -p "$work/$name/classes" "$work/$name/configuration"
    "$jdk/bin/javac" -nowarn -proc:none -encoding UTF-8 -d "$work/$name/classes" -cp "$cp" $(find "$src" -name '*.java')
    python3 - "$work/rt/bundle.jar" "$work/$name/classes" "$work/$name/bundle.jar" <<'PY'
import os, sys, zipfile
src, classes, out = sys.argv[1:]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        if not (item.filename.startswith('org/hostir/') and item.filename.endswith('.class')):
            zout.writestr(item, zin.read(item.filename))
    for d, _, files in os.walk(classes):
        for f in files:
            path = os.path.join(d, f)
            zout.write(path, os.path.relpath(path, classes))
PY
    sed "s#file\\\\:$jar#file\\\\:$work/$name/bundle.jar#" "$runtime/configuration/config.ini" \
        > "$work/$name/configuration/config.ini"
    grep -q "$work/$name/bundle.jar" "$work/$name/configuration/config.ini" \
        || { echo "editor-workbench-bench: the runtime's config.ini does not name $jar" >&2; exit 2; }
}
mkdir -p "$work/base-src"
git archive "$base" src | tar -x -C "$work/base-src"
side base "$work/base-src/src"
side tree "$root/src"
# EditorBenchmarkTest alone, whatever test classes the Tycho run that left the runtime selected
{ grep -v '^__provider\.tc\.' "$work/rt/surefire.properties" | sed "s#^reportsdirectory=.*#reportsdirectory=$work/reports#"
  echo "__provider.tc.0=org.hostir.studio.ui.tests.editor.EditorBenchmarkTest"; } > "$work/surefire.properties"
log=$work/bench.txt
for ((i = 1; i <= rounds; i++)); do
    for name in base tree; do
        echo "round $i $name: load $(cut -d' ' -f1-3 /proc/loadavg)"
        rec=()
        [[ -n $jfr ]] && { mkdir -p "$jfr"; rec=(-XX:FlightRecorderOptions:stackdepth=1024 -XX:StartFlightRecording=filename=$jfr/$name-$i.jfr,settings=profile); }
        xvfb-run -a -s "-screen 0 1920x1200x24" "$jdk/bin/java" "${rec[@]}" -Dosgi.noShutdown=false -Dosgi.os=linux \
            -Dosgi.ws=gtk -Dosgi.arch=x86_64 -Dhirstudio.repo="$root" -Dhirstudio.screenshots="$work/screenshots" \
            -Dhirstudio.tests.themeContrast=false -Dhirstudio.guideSizes=false -Dhirstudio.bench.opens="$opens" "${cold[@]}" \
            -Dosgi.clean=true -jar "$launcher" -consolelog -data "$work/$name/data-$i" -install "$runtime" \
            -configuration "$work/$name/configuration" -application org.eclipse.tycho.surefire.osgibooter.uitest \
            -testproperties "$work/surefire.properties" -testApplication org.eclipse.ui.ide.workbench 2>&1 \
            | grep '^BENCH' | sed "s/^/$name /" | tee -a "$log" || true
    done
done
python3 - "$log" <<'PY'
import re, statistics, sys
rows, cold = {}, {}
for line in open(sys.argv[1]):
    side, rest = line.split(' ', 1)
    m = re.search(r'first picture\) median \d+ ms \[([^\]]*)\].*UI thread open to first picture median \d+ ms \[([^\]]*)\], '
                  r'layout thread median \d+ ms \[([^\]]*)\]', rest)
    o = re.search(r'editor open median \d+ ms \[([^\]]*)\]', rest)
    if m:
        r = rows.setdefault(side, {'picture': [], 'ui': [], 'layout': [], 'open': []})
        c = cold.setdefault(side, {'picture': [], 'ui': [], 'layout': [], 'open': []})
        for key, text in (('picture', m.group(1)), ('ui', m.group(2)), ('layout', m.group(3)), ('open', o.group(1))):
            each = [int(x) for x in text.split(',')]
            r[key] += each[1:]   # each JVM's first open is cold
            c[key] += each[:1]
for kind, table in (('warm', rows), ('cold', cold)):
    med = {s: {k: statistics.median(v) for k, v in r.items() if v} for s, r in table.items()}
    for s, m in med.items():
        if 'picture' not in m: continue
        print(f"{s:5} {kind} (median of {len(table[s]['picture'])}: {table[s]['picture']}): openEditor {m['open']:.0f} ms, "
              f"first picture {m['picture']:.0f} ms; CPU to it: UI thread {m['ui']:.0f} ms, layout thread {m['layout']:.0f} ms")
    if all(s in med and 'picture' in med[s] for s in ('base', 'tree')):
        print(f'{kind} tree / base: ' + ', '.join(f"{k} {med['tree'][k] / med['base'][k]:.2f}" for k in ('open', 'picture', 'ui', 'layout')))
PY
