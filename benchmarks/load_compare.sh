#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Side by side: `tessera load` of one process's shards against the
# safetensors package's get_slice and a sequential read of the same bytes, on
# a multi-gigabyte checkpoint the benchmark writes, page cache dropped before
# every run (issue 12). Prints medians, throughput, ratios and peak RSS.
#
# Usage: benchmarks/load_compare.sh [BUILD_DIR] [load_compare.py options]
#   BUILD_DIR  a configured Meson build directory (default: build); the
#              tessera command is built there if needed. The checkpoint
#              (2.5 GiB by default, --gib) is written under
#              BUILD_DIR/benchmarks/load-compare and removed at the end
#              unless --keep.
# The virtual environment (safetensors, tests/differential/
# safetensors_requirements.txt, pinned) comes from scripts/jax-venv.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
venv=$("$root/scripts/jax-venv.sh" "$root/tests/differential/safetensors_requirements.txt" safetensors)
ninja -C "$build" cli/tessera >/dev/null
"$venv/bin/python" "$root/benchmarks/load_compare.py" --tessera "$build/cli/tessera" \
  --work "$build/benchmarks/load-compare" "$@"
