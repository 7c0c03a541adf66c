#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The DTensor differential test: random meshes and layouts (static, parted,
# single-device), their text, transforms and queries, and refused specs and
# texts, answered by TensorFlow's own DTensor (tensorflow-cpu 2.21, CPU only:
# meshes and layouts are values, no device is touched) and by libtessera
# through its C ABI: 2 x 1500 cases. Fails on any difference.
#
# Usage: run_dtensor_differential.sh path/to/libtessera.so.0
# The virtual environment (keras30_requirements.txt, pinned: it holds
# tensorflow-cpu) comes from scripts/jax-venv.sh and is shared with the keras
# differential test.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_dtensor_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh" "$here/keras30_requirements.txt" keras30)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in 11 12; do
  TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= \
    "$venv/bin/python" "$here/dtensor_cases.py" --count 1500 --seed "$seed" > "$work/cases_$seed.jsonl" 2> "$work/tf.log" \
    || { cat "$work/tf.log" >&2; exit 1; }
done
python3 "$here/compare_with_dtensor.py" --lib "$lib" "$work"/cases_*.jsonl
