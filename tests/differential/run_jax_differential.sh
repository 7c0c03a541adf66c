#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The jax differential test: random meshes, specs and shapes answered by the
# real jax (from PyPI, CPU, forced host devices) and by libtessera through its
# C ABI; fails on any difference. 250 cases on 8 devices, 500 on up to 64;
# then the TPU mesh construction and HloSharding comparisons.
#
# Usage: run_jax_differential.sh path/to/libtessera.so.0
# The virtual environment (requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_jax_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases() {  # devices count seed
  XLA_FLAGS="--xla_force_host_platform_device_count=$1" JAX_PLATFORMS=cpu \
    "$venv/bin/python" "$here/jax_cases.py" --max-devices "$1" --count "$2" --seed "$3"
}
cases 8 250 8 > "$work/cases_8.jsonl"
cases 64 500 64 > "$work/cases_64.jsonl"
python3 "$here/compare_with_jax.py" --lib "$lib" "$work/cases_8.jsonl" "$work/cases_64.jsonl"
# TPU mesh placement (S41 and the per-kind rings) against create_device_mesh.
JAX_PLATFORMS=cpu "$venv/bin/python" "$here/tpu_mesh_compare.py" --lib "$lib"
# HloSharding as a value: XLA's parser and printer (random texts) and JAX's
# export with manual axes.
XLA_FLAGS="--xla_force_host_platform_device_count=8" JAX_PLATFORMS=cpu \
  "$venv/bin/python" "$here/hlo_sharding_compare.py" --lib "$lib" --count 3000 --seed 11
# PartitionSpec errors in jax's words (duplicate, unknown, nested, rank).
XLA_FLAGS="--xla_force_host_platform_device_count=8" JAX_PLATFORMS=cpu \
  "$venv/bin/python" "$here/jax_spec_errors_compare.py" --lib "$lib" --count 2000 --seed 33
