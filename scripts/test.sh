#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# README command 2: installs what is missing, builds, and runs every test.
#
#   1. build/       -Dbuildtype=debugoptimized, the cluster API and every
#                   binding enabled explicitly (their default `auto` would
#                   skip one whose toolchain is missing): every suite but the
#                   benchmark ones, pkgconfig and nocluster;
#   2. build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer (leak checks
#                   on, first report aborts): suites core, capi, conformance;
#   3. the pkg-config consumer (suite pkgconfig of build/);
#   4. the build without the cluster API (suite nocluster of build/: it
#      configures and builds its own dir, tests/nocluster);
#   5. build-fuzz/  clang, libFuzzer + ASan/UBSan: every target of tests/fuzz
#                   for FUZZ_SECONDS each, two at a time, each one test.
#
# The last line is the totals over every test run, from Meson's testlog JSON:
#   N passed, N failed[, N skipped]
# A step that breaks before its tests run (configure, build, a run with no
# test) counts as one failure. Exits non-zero when anything failed.
# Sized for 2 cores: ninja -j2, two tests at a time.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

readonly JOBS=2
readonly ASAN_SUITES=(core capi conformance)
# -O1 with line tables, as ASan's own guide advises: the build is the longest
# step of the run, and -O2 -g took twice the compile time (client.cc 59 s of
# CPU against 21 s). Frame pointers keep the reports' stacks whole.
readonly ASAN_FLAGS='-O1 -g1 -fno-omit-frame-pointer'
readonly FUZZ_SECONDS=20
# The sanitizer and fuzz builds test the library itself; the bindings load it
# into a JVM, Mono or a Go binary, which the sanitizer runtimes do not support.
readonly NO_BINDINGS=(-Dbindings_go=disabled -Dbindings_java=disabled -Dbindings_csharp=disabled)

passed=0
failed=0
skipped=0

# Counts a step that broke before its tests could report.
broken() {
  printf 'test.sh: FAILED: %s\n' "$*" >&2
  failed=$((failed + 1))
}

# The suites of DIR's tests, one a line, without the project prefix.
suites_of() {
  meson introspect --tests "$1" | python3 -c '
import json, sys
names = {s.split(":")[-1] for t in json.load(sys.stdin) for s in t["suite"]}
print("\n".join(sorted(names)))'
}

# The end of each failed test's output, gathered by add_results; printed last,
# next to the totals, because a CI log is often read from its tail only.
readonly FAILURE_REPORT=$LOG_DIR/failed-tests.txt

# Adds the results in one Meson testlog JSON file (one object a line) to the
# totals and the last 80 lines of each failed test's output to
# FAILURE_REPORT; returns 1 when it holds no test.
add_results() {
  local counts
  counts=$(python3 - "$1" "$FAILURE_REPORT" <<'EOF'
import json, sys
TAIL = 80
kind = {"OK": "passed", "EXPECTEDFAIL": "passed", "SKIP": "skipped"}  # everything else failed
totals = {"passed": 0, "failed": 0, "skipped": 0}
with open(sys.argv[1]) as log, open(sys.argv[2], "a") as report:
    for line in log:
        if not line.strip():
            continue
        test = json.loads(line)
        outcome = kind.get(test["result"], "failed")
        totals[outcome] += 1
        if outcome == "failed":
            lines = ((test.get("stdout") or "") + (test.get("stderr") or "")).splitlines()
            report.write(f"==> FAILED {test['name']} ({test['result']}): "
                         f"the last {min(TAIL, len(lines))} lines of its output\n")
            report.writelines(l + "\n" for l in lines[-TAIL:])
print(totals["passed"], totals["failed"], totals["skipped"])
EOF
  ) || return 1
  local p f s
  read -r p f s <<<"$counts"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  printf '    %s: %d passed, %d failed, %d skipped\n' "$(basename "$1")" "$p" "$f" "$s" >&2
  ((p + f + s > 0))
}

# run_tests LABEL DIR [MESON_TEST_ARG...]: one `meson test` run, counted.
run_tests() {
  local label=$1 dir=$2
  shift 2
  local log=$dir/meson-logs/testlog-$label.json
  rm -f "$log"
  # Its status is not needed: every failure is in the log.
  meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$JOBS" \
    --logbase "testlog-$label" "$@" || true
  if [[ ! -f $log ]] || ! add_results "$log"; then
    broken "$label: meson test ran no test"
  fi
}

# configure_and_build DIR OPTION...: a step; failures are counted.
configure_and_build() {
  local dir=$1
  configure "$@" || { broken "configure $dir"; return 1; }
  build "$dir" -j"$JOBS" || { broken "build $dir"; return 1; }
}

normal_tests() {
  local suite args=()
  while read -r suite; do
    # Benchmarks are timed, not tested; the consumer and no-cluster checks
    # install and build, and run later, each on its own.
    [[ $suite == *bench* || $suite == pkgconfig || $suite == nocluster ]] && args+=(--no-suite "$suite")
  done < <(suites_of build)
  run_tests normal build "${args[@]}"
}

asan_tests() {
  local suite args=() have
  have=$(suites_of build-asan)
  for suite in "${ASAN_SUITES[@]}"; do
    grep -qxF "$suite" <<<"$have" || broken "build-asan has no suite '$suite'"
    args+=(--suite "$suite")
  done
  LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    run_tests asan build-asan --timeout-multiplier 3 "${args[@]}"
}

# --- fuzzing (tests/fuzz) ---------------------------------------------------
# Configures build-fuzz with clang, builds the `fuzzers` alias only and runs
# tests/fuzz/run_fuzzers.sh; each PASS/FAIL line it prints is one test.
fuzz_tests() {
  # -O1 with line tables: half the compile time of debugoptimized, and the
  # sanitizer reports still name file and line.
  local flags='-O1 -gline-tables-only -fno-sanitize-recover=all'
  CC=clang CXX=clang++ configure build-fuzz -Dfuzz=true -Dtests=disabled \
      -Dbenchmarks=disabled -Dbuildtype=plain -Db_sanitize=address,undefined \
      -Db_lundef=false -Dcpp_args="$flags -fsanitize=fuzzer-no-link" -Dc_args="$flags" "${NO_BINDINGS[@]}" \
      || { broken "configure build-fuzz"; return; }
  build build-fuzz -j"$JOBS" fuzzers || { broken "build build-fuzz"; return; }
  local out line p=0 f=0
  out=$(FUZZ_JOBS=$JOBS bash tests/fuzz/run_fuzzers.sh build-fuzz "$FUZZ_SECONDS") || true
  printf '%s\n' "$out"
  while IFS= read -r line; do
    case $line in
      PASS\ *) p=$((p + 1)) ;;
      FAIL\ *) f=$((f + 1)) ;;
    esac
  done <<<"$out"
  ((p + f > 0)) || { broken "fuzz: run_fuzzers.sh ran no target"; return; }
  passed=$((passed + p)) failed=$((failed + f))
  printf '    fuzz: %d passed, %d failed\n' "$p" "$f" >&2
}
# --- end fuzzing -------------------------------------------------------------

main() {
  local start=$SECONDS
  mkdir -p "$LOG_DIR"
  : >"$FAILURE_REPORT"
  say "dependencies (scripts/install-deps.sh)"
  bash scripts/install-deps.sh

  say "build/: configure and build (logs in $LOG_DIR/)"
  local normal_built=0
  configure_and_build build -Dbuildtype=debugoptimized -Dtests=enabled -Dcluster=enabled -Dio_uring=enabled \
      -Dbindings_go=enabled -Dbindings_java=enabled -Dbindings_csharp=enabled && normal_built=1
  if ((normal_built)); then
    say "build/: tests ($((SECONDS - start)) s so far)"
    normal_tests
  fi

  say "build-asan/: configure and build the suites ${ASAN_SUITES[*]} with -fsanitize=address,undefined"
  if configure build-asan -Dbuildtype=plain -Dcpp_args="$ASAN_FLAGS" -Dc_args="$ASAN_FLAGS" \
      -Dtests=enabled -Db_sanitize=address,undefined \
      -Db_lundef=false -Dbenchmarks=disabled "${NO_BINDINGS[@]}"; then
    if build_suites build-asan "${ASAN_SUITES[@]}"; then
      say "build-asan/: suites ${ASAN_SUITES[*]} ($((SECONDS - start)) s so far)"
      asan_tests
    else
      broken "build build-asan"
    fi
  else
    broken "configure build-asan"
  fi

  if ((normal_built)); then
    say "pkg-config consumer ($((SECONDS - start)) s so far)"
    run_tests pkgconfig build --suite pkgconfig
    say "build without the cluster API ($((SECONDS - start)) s so far)"
    run_tests nocluster build --suite nocluster
  fi

  say "build-fuzz/: libFuzzer targets, ${FUZZ_SECONDS} s each ($((SECONDS - start)) s so far)"
  fuzz_tests

  cat "$FAILURE_REPORT"
  say "done in $((SECONDS - start)) s"
  local totals="$passed passed, $failed failed"
  ((skipped == 0)) || totals+=", $skipped skipped"
  echo "$totals"
  ((failed == 0))
}

main "$@"
