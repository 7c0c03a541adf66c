#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Side by side: 8 and 32 processes forming a job and passing a first barrier,
# Tessera against jax.distributed (PyPI jax, CPU, pinned by
# tests/differential/requirements.txt), medians and ratio, from launch and
# from a common go signal once every process has loaded its library
# (cluster_init_compare.py explains both).
# Usage: benchmarks/cluster_init_compare.sh [BUILD_DIR] [--processes 8 32] [--runs 5]
#        [--verbose] [--lazy-binding]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
shift || true
venv=$("$root/scripts/jax-venv.sh")
ninja -C "$build" benchmarks/cluster_init_worker >/dev/null
python3 "$root/benchmarks/cluster_init_compare.py" --venv "$venv" \
  --tessera "$build/benchmarks/cluster_init_worker" "$@"
