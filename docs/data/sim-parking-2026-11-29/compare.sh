#!/bin/bash
# parking on (default) vs off (-Dhirstudio.sim.noParking=true) vs main's classes: traces and reports
# usage: AFTER=CLASSES BEFORE=CLASSES JAVA_HOME=JDK25 [WORK=DIR] compare.sh  (prints one line per run)
cd "$(git rev-parse --show-toplevel)"
L=.cache/lib; CP=$L/gson-2.13.2.jar:$L/jgrapht-core-1.5.3.jar:$L/sqlite-jdbc-3.53.4.0.jar:$L/jcuda-12.6.0.jar:$L/jcuda-natives-12.6.0-linux-x86_64.jar
J=$JAVA_HOME/bin/java
O=${WORK:-$(mktemp -d)}; mkdir -p $O
for seed in ag_matmul_p2p allgather_p2p; do for be in nccl cuda; do for D in 3 16 64 256; do
  opt=(); [[ $be == cuda ]] && opt=(--option backend=cuda)
  for v in after noparking before; do
    cls=$AFTER; extra=(); [[ $v == before ]] && cls=$BEFORE; [[ $v == noparking ]] && extra=(-Dhirstudio.sim.noParking=true)
    $J -Dhirstudio.home=$PWD --enable-native-access=ALL-UNNAMED "${extra[@]}" -cp $cls:$CP org.hostir.studio.cli.Main run examples/seeds/$seed.fusion --backend sim --no-validate --devices $D "${opt[@]}" --trace $O/$seed-$be-$D-$v.json 2>&1 | grep -v 'simulated:\|lowered\|trace:' > $O/$seed-$be-$D-$v.out
  done
  r1=$(cmp -s $O/$seed-$be-$D-after.json $O/$seed-$be-$D-before.json && echo bytes || python3 $(dirname "$0")/flowcmp.py $O/$seed-$be-$D-after.json $O/$seed-$be-$D-before.json | head -1)
  r2=$(cmp -s $O/$seed-$be-$D-noparking.json $O/$seed-$be-$D-before.json && echo bytes || echo DIFF)
  r3=$(cmp -s $O/$seed-$be-$D-after.out $O/$seed-$be-$D-before.out && echo same-report || echo REPORT-DIFF)
  echo "$seed $be D=$D after-vs-before: $r1; noparking-vs-before: $r2; $r3; $(grep -o 'span [0-9.]* ms' $O/$seed-$be-$D-after.out)"
done; done; done
