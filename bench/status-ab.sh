#!/bin/bash
# The keyed status poll (or /health: PATHSEL=health) over sockets as an A/B: one server per checkout (its built dist/,
# bench/lib/serve-status.mjs, each its own process), wrk -t1 -c100 against each in turn, round after round, so both
# see the same machine load. Per run: req/s, p50, p99 and the server's CPU per request (utime+stime of the process
# and of its main thread, /proc) with the load average. Usage: bench/status-ab.sh <seconds> <rounds> <checkout>…
# SHARED=1: every server in shared (fleet) mode, each on its own PostgreSQL and all on one Redis started for the
# run (bench/lib/shared-engines.ts, stopped at the end); the servers print their rate-limit round trips at the end,
# and each run adds the engines' CPU per request (its PostgreSQL's postmaster and backends, redis-server: utime+stime
# from /proc), which shares the machine's cores with the server and wrk.
# A checkout may carry node flags after a colon (`/work/main:--max-semi-space-size=64`): the same code A/B by flag.
secs=$1; rounds=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d)
declare -a PIDS URLS KEYS
if [ -n "$SHARED" ]; then
  OUT=$tmp/engines.json N=$# node --import tsx $here/lib/shared-engines.ts & EPID=$!
  for t in $(seq 120); do [ -s $tmp/engines.json ] && break; sleep 1; done
  export REDIS_URL=$(node -p "require('$tmp/engines.json').redis")
  # the postmaster of each checkout's PostgreSQL, by the port of its database (postmaster.pid: pid, dir, start, port)
  declare -A PMS; for f in /tmp/sejong-pg-$EPID-*/data/postmaster.pid; do PMS[$(sed -n 4p $f)]=$(head -1 $f); done
  RP=$(node -p "new URL(require('$tmp/engines.json').redis).port")
  RS=$(pgrep -f "redis-server.*$RP" | head -1)
fi
# PostgreSQL (postmaster and its backends) and Redis CPU ticks so far, 0 when not shared
# (the postmaster's cutime+cstime too: a backend that ended between two readings, e.g. a pool's idle client after
# 30 s, takes its ticks out of the live sum and they reappear there)
engines_ticks() { [ -z "$PM" ] && { echo 0; return; }; local t=$(awk '{print $16+$17}' /proc/$PM/stat) p; for p in $PM $(ps --ppid $PM -o pid= 2>/dev/null) $RS; do t=$((t + $(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || echo 0))); done; echo $t; }
# (each server's own PostgreSQL: PM is set per run below)
i=0
for d in "$@"; do
  out=$tmp/srv-$i.json; rm -f $out
  [ -n "$SHARED" ] && export DATABASE_URL=$(node -p "require('$tmp/engines.json').databases[$i]")
  flags=; [[ $d == *:* ]] && flags=${d#*:}
  ROOT=${d%%:*} OUT=$out node $flags $here/lib/serve-status.mjs & PIDS[$i]=$!
  i=$((i+1))
done
for j in $(seq 0 $((i-1))); do for t in $(seq 60); do [ -s $tmp/srv-$j.json ] && break; sleep 1; done; done
sleep 4
for r in $(seq $rounds); do
  for j in $(seq 0 $((i-1))); do
    d=${@:$((j+1)):1}; P=${PIDS[$j]}
    U=$(node -p "require('$tmp/srv-$j.json').url"); K=$(node -p "require('$tmp/srv-$j.json').key")
    [ -n "$SHARED" ] && PM=${PMS[$(node -p "new URL(require('$tmp/engines.json').databases[$j]).port")]}
    [ "$PATHSEL" = health ] && U=${U%%/api*}/health
    wrk -t1 -c100 -d1s -H "x-api-key: $K" $U >/dev/null
    read u0 s0 < <(awk "{print \$14, \$15}" /proc/$P/stat); read m0 < <(awk "{print \$14+\$15}" /proc/$P/task/$P/stat); e0=$(engines_ticks)
    o=$(wrk -t1 -c100 -d${secs}s --latency -H "x-api-key: $K" $U)
    read u1 s1 < <(awk "{print \$14, \$15}" /proc/$P/stat); read m1 < <(awk "{print \$14+\$15}" /proc/$P/task/$P/stat); e1=$(engines_ticks)
    n=$(echo "$o" | awk '/requests in/{print $1}'); rps=$(echo "$o" | awk '/Requests\/sec/{print $2}')
    p50=$(echo "$o" | awk '$1=="50%"{print $2}'); p99=$(echo "$o" | awk '$1=="99%"{print $2}'); non=$(echo "$o" | awk '/Non-2xx/{print $NF}')
    echo "round $r $(basename "$d") rps=$rps p50=$p50 p99=$p99 cpu_us/req=$(( (u1-u0+s1-s0)*10000000/n / 1000 )) (user $(( (u1-u0)*10000000/n/1000 )) sys $(( (s1-s0)*10000000/n/1000 ))) main_us/req=$(( (m1-m0)*10000000/n/1000 ))${PM:+ engines_us/req=$(( (e1-e0)*10000000/n/1000 ))} non2xx=${non:-0} load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
for p in ${PIDS[@]}; do kill -TERM $p; done; for p in ${PIDS[@]}; do wait $p; done
[ -n "$EPID" ] && kill -TERM $EPID && wait $EPID; rm -rf "$tmp"
