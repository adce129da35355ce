#!/bin/bash
# Server CPU per request of one GET route, from /proc (load-insensitive enough to compare two checkouts side by side).
# usage: bash bench/health-cpu.sh <checkout> [path]  → server CPU µs per request for GET path (default /health), wrk 5 s, 50 conns
dir=$1; p=${2:-/health}; port=$((18000 + RANDOM % 1000)); data=$(mktemp -d)
cd $dir && SEJONG_PORT=$port SEJONG_DATA_DIR=$data/db SEJONG_WORKERS=1 SEJONG_LOG_LEVEL=warn node bin/sejong.js serve > $data/log 2>&1 &
for i in $(seq 1 120); do curl -sf http://127.0.0.1:$port/health >/dev/null && break; sleep 0.5; done
pid=$(ss -ltnp "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
wrk -t1 -c50 -d2s http://127.0.0.1:$port$p >/dev/null
t0=$(awk '{print $14+$15}' /proc/$pid/stat)
out=$(wrk -t1 -c50 -d5s http://127.0.0.1:$port$p)
t1=$(awk '{print $14+$15}' /proc/$pid/stat)
n=$(echo "$out" | awk '/requests in/{print $1}')
echo "$dir $p requests=$n cpu_us_per_req=$(( (t1-t0)*10000*1000/n/1000 ))"
kill $pid; sleep 1; rm -rf $data
