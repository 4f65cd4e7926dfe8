#!/usr/bin/env bash
# Fast check that the Eclipse-side code (src/org/hostir/studio/ui and the UI tests) compiles, with javac against
# the newest version of each Eclipse, OSGi and Draw2d jar in the local Maven repository, in well under a minute
# instead of a Tycho build. It needs a local repository that a `./hirstudio build` or `test` has filled once.
# It only compiles: the Tycho build (`./hirstudio test`) is what resolves bundles as OSGi does and runs the tests.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=${MAVEN_REPO:-$HOME/.m2/repository}
cd "$root"
engine=$(./hirstudio classpath | tail -1)
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -x $j/bin/javac ]] && "$j/bin/javac" -version 2>&1 | grep -qE 'javac (2[5-9]|[3-9][0-9])' && { jdk=$j; break; }
done
eclipse=$(python3 - "$repo" <<'PY'
import glob, os, re, sys
best = {}
key = lambda v: [int(x) if x.isdigit() else 0 for x in re.split(r'[.-]', v)]
for top in ['org/eclipse', 'org/osgi', 'com/ibm']:
    for jar in glob.glob(os.path.join(sys.argv[1], top, '**', '*.jar'), recursive=True):
        if jar.endswith('-sources.jar'):
            continue
        version_dir = os.path.dirname(jar)
        artifact, version = os.path.dirname(version_dir), os.path.basename(version_dir)
        if artifact not in best or key(version) > key(best[artifact][0]):
            best[artifact] = (version, jar)
print(':'.join(jar for _, jar in best.values()))
PY
)
[[ -n $eclipse ]] || { echo "compile-ui: no Eclipse jars under $repo (run ./hirstudio build once)" >&2; exit 2; }
# --classpath: print the classpath the UI runs on outside OSGi (the Eclipse jars, and ELK's Guava), compile nothing
if [[ ${1:-} == --classpath ]]; then
    guava=$(ls "$repo"/com/google/guava/guava/33.4.8-jre/guava-33.4.8-jre.jar "$repo"/com/google/guava/failureaccess/1.0.3/failureaccess-1.0.3.jar | tr '\n' ':')
    echo "$engine:$eclipse:$guava"
    exit 0
fi
out=$root/.cache/ui-check
rm -rf "$out"
mkdir -p "$out/classes" "$out/tests"
junit=$(ls .cache/lib/junit-platform-console-standalone-*.jar | head -1)
"$jdk/bin/javac" -nowarn -proc:none -d "$out/classes" -cp "$engine:$eclipse" $(find src/org/hostir/studio/ui -name '*.java')
"$jdk/bin/javac" -nowarn -proc:none -d "$out/tests" -cp "$out/classes:$engine:$eclipse:$junit" \
    $(find tests/org.hostir.studio.ui.tests/src -name '*.java')
echo "compile-ui: the UI code and the UI tests compile"
