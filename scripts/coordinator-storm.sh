#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The key-value list storm of issue 15, item 1, against a standalone
# coordinator (`tessera coordinator`, default 1 GiB store limit): process 0
# fills the store with VALUES values of VALUE_MIB MiB, then LISTERS other
# processes list all of it at once, with a short heartbeat timeout.
# Prints the coordinator's peak RSS (VmHWM) as a multiple of the store limit
# and of the bytes stored, and whether the job survived.
#
# Usage: scripts/coordinator-storm.sh [BUILD_DIR] [--values 15] [--value-mib 60]
#          [--listers 3] [--listings 1] [--heartbeat-ms 1000,10000]
# The issue's scenario is the default (about 1 GiB in the coordinator and
# 1 GiB in each lister); on a small machine try --values 15 --value-mib 20.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
if [[ $# -gt 0 && $1 != --* ]]; then
  build=$1
  shift
fi
values=15 value_mib=60 listers=3 listings=1 heartbeat=1000,10000
while [[ $# -gt 0 ]]; do
  case $1 in
    --values) values=$2 ;;
    --value-mib) value_mib=$2 ;;
    --listers) listers=$2 ;;
    --listings) listings=$2 ;;
    --heartbeat-ms) heartbeat=$2 ;;
    *) echo "unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift 2
done
readonly store_limit=$((1 << 30))  # tessera coordinator's default max store bytes
tessera=$build/cli/tessera
worker=$build/tests/cluster/cluster_worker
[[ -x $tessera && -x $worker ]] || { echo "build $tessera and $worker first" >&2; exit 2; }

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

processes=$((listers + 1))
"$tessera" coordinator --bind 127.0.0.1:0 --num-processes "$processes" --job-id storm \
  --port-file "$work/port" --heartbeat-interval-ms "${heartbeat%,*}" \
  --heartbeat-timeout-ms "${heartbeat#*,}" --shutdown-timeout-ms 30000 >"$work/coordinator.out" 2>"$work/coordinator.err" &
coordinator=$!
pids+=("$coordinator")
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.1; done
[[ -s $work/port ]] || { cat "$work/coordinator.err" >&2; exit 1; }
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$coordinator/status"; }
baseline_kb=$(kb VmRSS)

args=("addr=127.0.0.1:$(cat "$work/port")" "n=$processes" job=storm "hb=$heartbeat" init_timeout=60000
      rpc_timeout=600000 alarm=1800)
value_bytes=$((value_mib << 20))
"$worker" "${args[@]}" id=0 -- connect "fill:storm:$values:$value_bytes" barrier:filled:600000 \
  barrier:listed:1200000 shutdown >"$work/p0.out" 2>"$work/p0.err" &
pids+=($!)
for ((id = 1; id <= listers; ++id)); do
  "$worker" "${args[@]}" "id=$id" -- connect barrier:filled:600000 "listloop:storm:$listings" \
    barrier:listed:1200000 shutdown >"$work/p$id.out" 2>"$work/p$id.err" &
  pids+=($!)
done

peak_kb=0
while kill -0 "$coordinator" 2>/dev/null; do
  now=$(kb VmHWM 2>/dev/null || true)
  [[ -n $now ]] && peak_kb=$now
  sleep 0.2
done
status=0
wait "$coordinator" || status=$?
wait || true

stored=$((values * value_bytes))
failed=$(cat "$work"/p*.out | grep -c '^R .* err ' || true)
echo "store: $values x $value_mib MiB = $((stored >> 20)) MiB (limit $((store_limit >> 20)) MiB);" \
  "$listers listers x $listings listing(s); heartbeat interval,timeout ${heartbeat} ms"
echo "coordinator: baseline ${baseline_kb} kB, peak (VmHWM) ${peak_kb} kB"
awk -v p="$peak_kb" -v b="$baseline_kb" -v l="$store_limit" -v s="$stored" 'BEGIN {
  printf "peak / store limit: %.2fx; peak / bytes stored: %.2fx (less the baseline: %.2fx)\n",
    p * 1024 / l, p * 1024 / s, (p - b) * 1024 / s }'
grep -h 'listloop ok' "$work"/p*.out | sed 's/^/  /' || true
if [[ $status -eq 0 && $failed -eq 0 ]]; then
  echo "job survived: yes (every step ok, coordinator exit 0)"
else
  echo "job survived: NO (coordinator exit $status, $failed failed steps)"
  grep -h '^R .* err ' "$work"/p*.out | sed 's/^/  /' | head -8
  exit 1
fi
