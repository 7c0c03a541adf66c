#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Failure detection latency: kill one process mid-barrier, time until every
# survivor has the job error, against heartbeat timeout + one interval.
# Usage: benchmarks/cluster_failure_detect.sh [BUILD_DIR] [--processes 4] [--runs 5]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
shift || true
ninja -C "$build" tests/cluster/cluster_worker >/dev/null
python3 "$root/benchmarks/cluster_failure_detect.py" --worker "$build/tests/cluster/cluster_worker" "$@"
