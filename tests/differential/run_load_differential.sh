#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The load differential test (issue 12): random checkpoints written by the
# `safetensors` package (single files and sharded models with an index),
# random rules and meshes of 8 devices, placed by jax
# (NamedSharding, addressable shards, every shard checked against numpy's
# slice), then `tessera load` (with --sha256, and without: boxes) for every
# process of jobs of 1, 2 and 4 processes; fails on any difference in a
# shard's hash or box, or the bytes read.
#
# Usage: run_load_differential.sh path/to/tessera
# The virtual environment (jax and safetensors, load_requirements.txt, pinned)
# comes from scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tessera=${1:?usage: run_load_differential.sh path/to/tessera}
venv=$("$here/../../scripts/jax-venv.sh" "$here/load_requirements.txt" jax-safetensors)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
XLA_FLAGS="--xla_force_host_platform_device_count=8" JAX_PLATFORMS=cpu \
  "$venv/bin/python" "$here/load_cases.py" --count 100 --seed 12 --out "$work" > "$work/cases.jsonl"
python3 "$here/compare_load_with_jax.py" --tessera "$tessera" --seed 12 "$work/cases.jsonl"
