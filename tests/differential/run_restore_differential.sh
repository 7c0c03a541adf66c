#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The restore tests of issue 13, in the jax + safetensors environment
# (load_requirements.txt, pinned; scripts/jax-venv.sh):
#   round_trips  save (sharded_writer, real processes) under random layouts and
#                meshes, restore through libtessera (real processes) under
#                others: every byte, and bytes read == the overlap;
#   jax          restored shards against jax's NamedSharding addressable shards.
# Usage: run_restore_differential.sh round_trips|jax path/to/libtessera.so [PAIRS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
what=${1:?usage: run_restore_differential.sh round_trips|jax path/to/libtessera.so [PAIRS]}
lib=${2:?usage: run_restore_differential.sh round_trips|jax path/to/libtessera.so [PAIRS]}
venv=$("$here/../../scripts/jax-venv.sh" "$here/load_requirements.txt" jax-safetensors)
case "$what" in
  round_trips) exec "$venv/bin/python" "$here/restore_round_trips.py" --lib "$lib" --pairs "${3:-300}" --seed 13 ;;
  jax) XLA_FLAGS="--xla_force_host_platform_device_count=8" JAX_PLATFORMS=cpu \
         exec "$venv/bin/python" "$here/compare_restore_with_jax.py" --lib "$lib" --cases "${3:-40}" --seed 13 ;;
  *) echo "run_restore_differential.sh: unknown test '$what'" >&2; exit 2 ;;
esac
