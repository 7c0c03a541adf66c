#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# ThreadSanitizer over the threaded code (issue 14): the cluster client, the
# coordinator and its state, TLS reloads, the coordinator's health, readiness,
# status and metrics services, the checkpoint loader's threads and the layout
# map's concurrent lookups, through their unit tests and the C ABI's.
#
#   build-tsan/  gcc -fsanitize=thread, -O1 with line tables; only what the
#                tests below run is built
#
# Not part of scripts/test.sh: from an empty build-tsan/ with a cold compiler
# cache this takes about 10 minutes on the 2-core machine (581 s: the build
# 531 s, the tests 40 s), and test.sh with a cold cache already takes 26, so
# the whole run would pass its 35-minute budget (README, "tsan.sh").
#
# Debian's gRPC, protobuf and Abseil are not instrumented. absl::Mutex (and
# CondVar, Notification, BlockingCounter, Barrier), which Tessera and gRPC
# lock with, works by atomics TSan cannot see: every test runs with
# tests/tsan/absl_sync_annotations.cc preloaded, which tells TSan the
# happens-before edges those calls make, and those of absl::Status's shared
# reference count and of gRPC's completion queues (an operation's start
# before its completion). What is left inside gRPC's own code is suppressed
# in tests/tsan.supp, each with its reason. Any other report fails the test
# that printed it (exit code 66).
#
# Usage: bash scripts/tsan.sh [TEST...]   (default: the list below)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

readonly DIR=build-tsan
readonly JOBS=2
readonly FLAGS='-O1 -g -fno-omit-frame-pointer'
readonly TESTS=(
  # core: the coordinator, its state, the client, TLS; the loader; lookups
  cluster_coordinator cluster_coordinator_state cluster_client cluster_tls
  checkpoint_read_plan layout_map
  # the C ABI over them
  capi_client capi_coordinator capi_coordinator_service capi_checkpoint_load
  # the coordinator as a service: health, readiness, status, metrics
  ClusterHealth ClusterReadiness ClusterStatus metrics_scrape
  # whole jobs of worker processes (each a TSan-built program)
  ClusterBarrier ClusterKv ClusterShutdown ClusterFailure
)

main() {
  local tests=("${TESTS[@]}")
  (($# == 0)) || tests=("$@")
  bash scripts/install-deps.sh

  say "$DIR/: configure and build with -fsanitize=thread (logs in $LOG_DIR/)"
  configure "$DIR" -Dbuildtype=plain -Dcpp_args="$FLAGS" -Dc_args="$FLAGS" -Db_sanitize=thread \
      -Db_lundef=false -Dtests=enabled -Dcluster=enabled -Dbenchmarks=disabled -Ddocs=disabled \
      -Dbindings_go=disabled -Dbindings_java=disabled -Dbindings_csharp=disabled ||
    { echo "tsan: FAIL: configure $DIR" >&2; exit 1; }
  build_suites "$DIR" "${tests[@]}" || { echo "tsan: FAIL: build $DIR" >&2; exit 1; }
  local annotations=$PWD/$DIR/libtsan_absl_sync.so
  c++ -shared -fPIC -fsanitize=thread $FLAGS -Wall -Wextra -Werror tests/tsan/absl_sync_annotations.cc \
      -o "$annotations" -ldl || { echo "tsan: FAIL: build $annotations" >&2; exit 1; }

  say "$DIR/: ${tests[*]}"
  # halt_on_error=0: every report of a test, not only its first; the exit
  # code still fails it.
  TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=0 second_deadlock_stack=1 history_size=4" \
    meson test -C "$DIR" --no-rebuild --print-errorlogs --num-processes "$JOBS" --timeout-multiplier 5 \
      --wrapper "env LD_PRELOAD=$annotations" "${tests[@]}"
}

main "$@"
