#!/bin/bash
# usage: run.sh CLASSES SEED D TAG [JAVA OPTIONS...]; appends one line to $WORK/results.txt
WORK=${WORK:-$(mktemp -d)}
ROOT=$(git rev-parse --show-toplevel)
L=$ROOT/.cache/lib
CLASSES=$1; SEED=$2; D=$3; TAG=$4; shift 4
CP=$CLASSES:$L/gson-2.13.2.jar:$L/jgrapht-core-1.5.3.jar:$L/sqlite-jdbc-3.53.4.0.jar:$L/jcuda-12.6.0.jar:$L/jcuda-natives-12.6.0-linux-x86_64.jar
JAVA=$JAVA_HOME/bin/java   # a JDK 25
cd "$ROOT"
L1=$(cut -d' ' -f1 /proc/loadavg)
/usr/bin/time -v -o "$WORK/$TAG.time" $JAVA -Dhirstudio.home="$ROOT" --enable-native-access=ALL-UNNAMED "$@" -cp "$CP" \
    org.hostir.studio.cli.Main run examples/seeds/$SEED.fusion --backend sim --no-validate --devices $D > "$WORK/$TAG.out" 2>&1
rc=$?
L2=$(cut -d' ' -f1 /proc/loadavg)
echo "$TAG rc=$rc load=$L1/$L2 $(grep -o 'simulated: [0-9.]* ms' "$WORK/$TAG.out") $(grep -E 'Elapsed|User time|System time|Maximum resident' "$WORK/$TAG.time" | sed 's/^\s*//' | tr '\n' ';')" >> "$WORK/results.txt"
