#!/bin/bash
# seed|options|D|rc|span|path|wall|user|sys|rssKB|lowered|load before-after|
WORK=${WORK:-$(mktemp -d)}   # the frozen classes (a copy of .cache/engine/classes, links followed), out/, sweep.txt
ROOT=$(git rev-parse --show-toplevel)   # the checkout
L=$ROOT/.cache/lib
CP=$WORK/classes:$L/gson-2.13.2.jar:$L/jgrapht-core-1.5.3.jar:$L/sqlite-jdbc-3.53.4.0.jar:$L/jcuda-12.6.0.jar:$L/jcuda-natives-12.6.0-linux-x86_64.jar
JAVA=$JAVA_HOME/bin/java   # a JDK 25
one() { # seed opts D timeout
  local seed=$1 opts=$2 d=$3 to=$4 tag=$1${2:+-offset}-$3
  local l0=$(cut -d' ' -f1 /proc/loadavg)
  cd $ROOT
  timeout $to /usr/bin/time -v $JAVA -Dhirstudio.home=$ROOT --enable-native-access=ALL-UNNAMED -cp $CP org.hostir.studio.cli.Main \
     run examples/seeds/$seed.fusion --backend sim --no-validate --devices $d $opts > $WORK/out/$tag.out 2> $WORK/out/$tag.err
  local rc=$?
  local l1=$(cut -d' ' -f1 /proc/loadavg)
  local o=$WORK/out/$tag.out e=$WORK/out/$tag.err
  local span=$(grep -o 'predicted: span [0-9.]* ms' $o | sed 's/predicted: span //')
  local path=every; grep -q 'proved to be theirs' $o && path=proved; grep -q 'checked to be theirs' $o && path=checked
  local wall=$(grep 'Elapsed' $e | awk '{print $NF}') user=$(grep 'User time' $e | awk '{print $NF}') sys=$(grep 'System time' $e | awk '{print $NF}')
  local rss=$(grep 'Maximum resident' $e | awk '{print $NF}') low=$(grep -o 'lowered [0-9]* programs in [0-9.]* s' $o | awk '{print $5" s"}')
  echo "$seed|$opts|$d|rc=$rc|$span|$path|wall=$wall|user=$user|sys=$sys|rssKB=$rss|lowered=$low|load=$l0-$l1|" >> $WORK/sweep.txt
}
for d in 64 256 1024 4096 16384; do
  for s in ag_linear ag_matmul allgather allreduce matmul_ar matmul_rs_through_bcast reduce_scatter scatter_two_stages single_set three_sets_disjoint two_sets; do
    one $s "" $d 400
  done
  for s in ag_matmul_p2p allgather_p2p; do one $s "--option offsetStreamIndexingByRank=true" $d 400; done
done
for d in 64 256 1024; do for s in ag_matmul_p2p allgather_p2p; do one $s "" $d 600; done; done
for s in ag_matmul_p2p allgather_p2p; do one $s "" 4096 240; done
echo DONE >> $WORK/sweep.txt
