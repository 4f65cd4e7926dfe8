#!/usr/bin/env bash
# Builds .gpu/ (git-ignored), what the GPU machine needs to run the engine, which has no Java there:
#   .gpu/rt            a jlink'd JDK 25 runtime (java.base, java.logging, java.sql for SQLite JDBC, jdk.unsupported;
#                      FFM is in java.base; jdk.jfr for profiling with -XX:StartFlightRecording)
#   .gpu/engine        the engine's classes (./hirstudio compiles them), .gpu/test the engine test classes
#   .gpu/lib           Gson, JGraphT, SQLite JDBC (with its Linux x86-64 native library only), JCuda (jar, and its
#                      driver binding's JNI library in lib/natives) and the JUnit console launcher, fetched by
#                      ./hirstudio with the system Maven
# The CUDA driver is reached through JCuda; NCCL, cuBLASLt and NVRTC are the machine's own libraries, bound
# through java.lang.foreign, so JCuda's driver binding is the only native library that travels. The whole
# folder must stay under 64 MiB with the working tree (the run tool's limit).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JDK=${JDK:-}
if [[ -z $JDK ]]; then
    for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25*; do
        [[ -n $c && -x $c/bin/jlink ]] && { JDK=$c; break; }
    done
fi
[[ -n $JDK && -x $JDK/bin/jlink ]] || { echo "gpu-package: no JDK 25 with jlink found (set JDK=...)" >&2; exit 2; }
G=$ROOT/.gpu
rm -rf "$G"
mkdir -p "$G/engine" "$G/test" "$G/lib"
"$JDK/bin/jlink" --add-modules java.base,java.logging,java.sql,jdk.unsupported,jdk.jfr --strip-debug --no-man-pages \
    --no-header-files --compress=zip-6 --output "$G/rt"
# the JVM's own symbol table is 5 MB of the 64 MiB the device tool carries (jlink's --strip-debug keeps it)
if command -v strip >/dev/null 2>&1; then find "$G/rt" -name '*.so' -exec strip --strip-unneeded {} +; fi
# the engine and the unit-test classes, compiled by ./hirstudio (javac, no Tycho)
cp_engine=$(./hirstudio classpath | tail -1)
cp -r "${cp_engine%%:*}/." "$G/engine/"
libs=${cp_engine#*:}
for jar in ${libs//:/ }; do
    case $(basename "$jar") in
        gson-*) cp "$jar" "$G/lib/gson.jar" ;;
        jgrapht-*) cp "$jar" "$G/lib/jgrapht.jar" ;;
        sqlite-jdbc-*)   # the jar less the native libraries of other platforms (12 MB -> 1 MB)
            rm -rf "$G/sqlite" && mkdir -p "$G/sqlite"
            (cd "$G/sqlite" && "$JDK/bin/jar" xf "$jar" \
                && find org/sqlite/native -mindepth 2 -maxdepth 2 -type d ! -path 'org/sqlite/native/Linux/x86_64' \
                    -exec rm -rf {} + \
                && "$JDK/bin/jar" --create --file "$G/lib/sqlite-jdbc.jar" --manifest META-INF/MANIFEST.MF \
                    -C "$G/sqlite" org)
            rm -rf "$G/sqlite" ;;
        jcuda-natives-*)   # only the driver binding's JNI library: JCuda loads it from java.library.path
            mkdir -p "$G/lib/natives"
            (cd "$G/lib/natives" && "$JDK/bin/jar" xf "$jar" lib && mv lib/libJCudaDriver-*.so . && rm -rf lib) ;;
        jcuda-*) cp "$jar" "$G/lib/jcuda.jar" ;;
    esac
done
./hirstudio unit NoSuchTestClassToRun >/dev/null 2>&1 || true   # compiles the tests into .cache/unit/classes
cp -r "$(readlink -f .cache/unit/classes)/." "$G/test/"
cp "$(ls .cache/lib/junit-platform-console-standalone-*.jar | head -1)" "$G/lib/junit-console.jar"
size=$(du -sm "$G" | cut -f1)
echo "gpu-package: $G is ${size} MiB"
if (( size >= 60 )); then echo "gpu-package: too large for the 64 MiB carry limit" >&2; exit 1; fi
