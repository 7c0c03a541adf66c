#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The torch differential test: random meshes, layouts and shapes; torch's
# DTensor placements for them (torch 2.15's CPU use of its PyPI wheel, no
# process group: its pure local-shape-and-offset helper and its placements'
# own split) against libtessera's placements text, its parse of torch's repr
# and its chunk-nested shards. 2 x 1000 cases. Then torch's DistributedSampler
# (unshuffled) against tessera_interleave_samples: every N <= 20 with
# S <= 8 and 2000 random N <= 200, S <= 16, every rank, both drop_last,
# ranks past the end (torch's ValueError); and shuffled (seed, set_epoch)
# against tessera_interleave_samples_shuffled: 1000 random N up to 3000 (three
# up to 2^20 + 1), seeds over manual_seed's whole range, every rank, both
# drop_last. Fails on any difference.
#
# Usage: run_torch_differential.sh path/to/libtessera.so.0
# The virtual environment (torch_requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_torch_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh" "$here/torch_requirements.txt" torch)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in 21 22; do
  "$venv/bin/python" "$here/torch_cases.py" --count 1000 --seed "$seed" > "$work/cases_$seed.jsonl"
done
"$venv/bin/python" "$here/torch_cases.py" --kind sampler --count 2000 --seed 23 > "$work/cases_sampler.jsonl"
"$venv/bin/python" "$here/torch_cases.py" --kind shuffled-sampler --count 1000 --seed 24 \
  > "$work/cases_shuffled_sampler.jsonl"
python3 "$here/compare_with_torch.py" --lib "$lib" "$work"/cases_*.jsonl
