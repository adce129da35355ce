#!/bin/bash
# Scavenges per request of the keyed status poll (or /health: PATHSEL=health) over sockets, per checkout in turn
# (its built dist/, bench/lib/serve-status.mjs under --trace-gc, wrk -t1 -c100 -d6s): how often a young-generation
# collection pauses the loop, and the pauses' total (wall ms: under load a pause includes time off the CPU). Worker
# threads' isolates (mmap addresses 0x7…) are left out. Usage: bench/status-gc.sh <checkout>…
# A checkout may carry node flags after a colon (`/work/main:--max-semi-space-size=64`).
here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d)
i=0
for arg in "$@"; do
  root=${arg%%:*}; flags=; [[ $arg == *:* ]] && flags=${arg#*:}; i=$((i+1))
  out=$tmp/gc-$i.json; rm -f $out
  ROOT=$root OUT=$out node $flags --trace-gc $here/lib/serve-status.mjs > $tmp/gc-$i.txt 2>&1 & P=$!
  for t in $(seq 60); do [ -s $out ] && break; sleep 1; done
  U=$(node -p "require('$out').url"); K=$(node -p "require('$out').key")
  [ "$PATHSEL" = health ] && U=${U%%/api*}/health
  wrk -t1 -c100 -d2s -H "x-api-key: $K" $U >/dev/null
  L0=$(wc -l < $tmp/gc-$i.txt)
  n=$(wrk -t1 -c100 -d6s -H "x-api-key: $K" $U | awk '/requests in/{print $1}')
  sed -n "$((L0+1)),\$p" $tmp/gc-$i.txt | grep "Scavenge" | grep -v "0x7" >  $tmp/gcs.txt
  s=$(wc -l < $tmp/gcs.txt); ms=$(awk -F'MB, ' '{split($2,a," "); t+=a[1]} END {print t}' $tmp/gcs.txt)
  echo "$(basename "$arg") ${PATHSEL:-status}: $n requests, $s scavenges ($(awk "BEGIN{printf \"%.1f\", $s*10000/$n}") per 10k requests), pause total ${ms} ms, load $(cut -d' ' -f1 /proc/loadavg)"
  kill -TERM $P; wait $P 2>/dev/null
done
rm -rf "$tmp"
