#!/bin/bash
# What each young-generation collection copies while the keyed status poll runs (front22): one server per argument
# in turn (bench/lib/serve-status.mjs under --trace-gc-nvp), 8 s to settle, wrk -t1 -c100 2 s warm-up + SECS (5) s;
# per run the scavenges, the bytes each copied (new_space_survived: mean and median) and promoted, their mean pause
# (wall: under load it includes time off the CPU), bytes allocated per poll, other GCs. An argument is
# <checkout>[@<knockout>] (KNOCKOUT of serve-status.mjs: request-log, metrics, rate-limit-persist, rate-limit).
# Shared mode: DATABASE_URL and REDIS_URL set (e.g. from bench/lib/shared-engines.ts). Worker threads (0x7…) left out.
# Usage: bench/status-survivors.sh <checkout>[@knockout]…
here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d)
for arg in "$@"; do
  root=${arg%%@*}; knock=; [[ $arg == *@* ]] && knock=${arg#*@}
  rm -f $tmp/srv.json
  ROOT=$root KNOCKOUT=$knock OUT=$tmp/srv.json node --trace-gc-nvp $here/lib/serve-status.mjs > $tmp/gc.txt 2>&1 & P=$!
  for t in $(seq 60); do [ -s $tmp/srv.json ] && break; sleep 1; done; sleep 8
  U=$(node -p "require('$tmp/srv.json').url"); K=$(node -p "require('$tmp/srv.json').key")
  wrk -t1 -c100 -d2s -H "x-api-key: $K" $U > /dev/null; L0=$(wc -l < $tmp/gc.txt)
  n=$(wrk -t1 -c100 -d${SECS:-5}s -H "x-api-key: $K" $U | awk '/requests in/{print $1}')
  kill -TERM $P; wait $P 2>/dev/null
  sed -n "$((L0+1)),\$p" $tmp/gc.txt | grep -v "0x7" | grep "gc=" | awk -v v="$(basename $root)${knock:+ without $knock}" -v n=$n '
    function med(  i, j, t) { for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (sv[j] < sv[i]) { t = sv[i]; sv[i] = sv[j]; sv[j] = t } return sv[int((c + 1) / 2)] }
    { for (i = 1; i <= NF; i++) { split($i, a, "="); x[a[1]] = a[2] }
      if (x["gc"] != "s") { mj++; mjp += x["pause"]; next }
      c++; sv[c] = x["new_space_survived"]; s += x["new_space_survived"]; p += x["promoted"]; ps += x["pause"]; al += x["allocated"] }
    END { if (c == 0 || n == 0) { print v ": " n " polls, " c " scavenges: nothing to report"; exit }
      printf "%s: %d polls, %d scavenges (%.1f per 10k), survived mean %d KB (median %d KB), promoted mean %d KB, pause mean %.2f ms, %.0f B allocated per poll; other GCs %d (%.1f ms)\n", v, n, c, c * 10000 / n, s / c / 1024, med() / 1024, p / c / 1024, ps / c, al / n, mj, mjp }'
  echo "  load $(cut -d' ' -f1-3 /proc/loadavg)"
done
rm -rf "$tmp"
