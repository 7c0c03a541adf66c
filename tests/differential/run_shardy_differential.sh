#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The Shardy differential test: random meshes and specs whose Shardy text the
# real jax prints (from PyPI, CPU, its own MLIR bindings), compared with
# libtessera's printing and parsing through its C ABI; fails on any
# difference. 1000 cases on 8 devices, 1000 on up to 64.
#
# Usage: run_shardy_differential.sh path/to/libtessera.so.0
# The virtual environment (requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_shardy_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases() {  # devices count seed
  XLA_FLAGS="--xla_force_host_platform_device_count=$1" JAX_PLATFORMS=cpu \
    "$venv/bin/python" "$here/shardy_cases.py" --max-devices "$1" --count "$2" --seed "$3"
}
cases 8 1000 8 > "$work/cases_8.jsonl"
cases 64 1000 64 > "$work/cases_64.jsonl"
python3 "$here/compare_shardy_with_jax.py" --lib "$lib" "$work/cases_8.jsonl" "$work/cases_64.jsonl"
