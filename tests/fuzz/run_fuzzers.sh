#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Runs every libFuzzer target of a -Dfuzz=true build for a bounded time.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS
#
# Each target <name>_fuzzer runs for SECONDS (-max_total_time) on a fresh
# copy of tests/fuzz/corpus/<name>/ (the checked-in seeds never change), with
# its dictionary dict/<name>.dict if any, leak detection on and any sanitizer
# report fatal. One line per target:
#   PASS <name>: <runs> runs in <s> s, corpus <n> inputs
#   FAIL <name>: <what libFuzzer reported>
# and, for a failure, the input in hex and the report's stack. FUZZ_JOBS
# (default 2) targets run at a time. Exits 1 when any target failed.
set -uo pipefail

if (($# != 2)); then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
readonly build_dir=$1 seconds=$2
readonly here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly jobs=${FUZZ_JOBS:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-fuzz.XXXXXX")
readonly work
trap 'rm -rf "$work"' EXIT

# run_one NAME: runs one target, writes its result line to $work/NAME.result.
run_one() {
  local name=$1
  local bin=$build_dir/tests/fuzz/${name}_fuzzer dir=$work/$name
  mkdir -p "$dir/corpus" "$dir/artifacts"
  if [[ ! -x $bin ]]; then
    echo "FAIL $name: $bin is not built" >"$work/$name.result"
    return
  fi
  cp -R "$here/corpus/$name/." "$dir/corpus/"
  # A dictionary of the format's keywords, where there is one.
  local dict=()
  [[ -f $here/dict/$name.dict ]] && dict=(-dict="$here/dict/$name.dict")
  local status=0
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "${dict[@]}" "$dir/corpus" \
    >"$dir/log" 2>&1 || status=$?
  if ((status == 0)); then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
    echo "PASS $name: ${runs:-?} runs in $seconds s, corpus $(find "$dir/corpus" -type f | wc -l) inputs" \
      >"$work/$name.result"
    return
  fi
  {
    local what
    what=$(grep -m 1 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|^==[0-9]+== ERROR: libFuzzer' "$dir/log")
    echo "FAIL $name: ${what:-libFuzzer exited with status $status}"
    local artifact
    for artifact in "$dir"/artifacts/*; do
      [[ -f $artifact ]] || continue
      echo "  input $(basename "$artifact") (hex): $(od -An -tx1 -v "$artifact" | tr -d ' \n' | cut -c1-2000)"
    done
    echo "  report:"
    grep -E '^ +#[0-9]+ |ERROR|SUMMARY|runtime error' "$dir/log" | head -n 40 | sed 's/^/    /'
  } >"$work/$name.result"
}
export -f run_one
export build_dir seconds here work

names=()
for bin in "$build_dir"/tests/fuzz/*_fuzzer; do
  [[ -x $bin ]] && names+=("$(basename "$bin" _fuzzer)")
done
if ((${#names[@]} == 0)); then
  echo "FAIL: no *_fuzzer in $build_dir/tests/fuzz" >&2
  exit 1
fi
# Every target with a seed corpus must be built.
for corpus in "$here"/corpus/*/; do
  name=$(basename "$corpus")
  [[ -x $build_dir/tests/fuzz/${name}_fuzzer ]] || names+=("$name")
done

printf '%s\n' "${names[@]}" | sort -u | xargs -P "$jobs" -I{} bash -c 'run_one "$1"' _ {}

failed=0
for name in $(printf '%s\n' "${names[@]}" | sort -u); do
  cat "$work/$name.result"
  grep -q '^PASS ' "$work/$name.result" || failed=1
done
exit "$failed"
