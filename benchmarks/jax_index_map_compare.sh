#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Side by side: jax's devices_indices_map (PyPI, CPU, forced host devices)
# against Tessera's index map, on 512 and 8,192 devices by default.
# Usage: benchmarks/jax_index_map_compare.sh [BUILD_DIR] [--mesh A,B,C ...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
shift || true
venv=$("$root/scripts/jax-venv.sh")
ninja -C "$build" benchmarks/index_map_compare >/dev/null
python3 "$root/benchmarks/jax_index_map_compare.py" --venv "$venv" \
  --tessera "$build/benchmarks/index_map_compare" "$@"
