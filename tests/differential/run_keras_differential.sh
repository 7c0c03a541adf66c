#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The keras differential test: random interleave splits, initialize arguments
# and distributions answered by the real keras (keras-nightly from PyPI, the
# first release with the adapters' interleave split; JAX backend on CPU) and by
# libtessera through its C ABI: 2 x 3000 cases; and the Keras 3.0 dataset mode
# against keras 3.3.3 on TensorFlow's CPU wheel: 300 cases. Fails on any
# difference.
#
# Usage: run_keras_differential.sh path/to/libtessera.so.0
# The virtual environments (keras_requirements.txt and keras30_requirements.txt,
# pinned) come from scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_keras_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh" "$here/keras_requirements.txt" keras)
venv30=$("$here/../../scripts/jax-venv.sh" "$here/keras30_requirements.txt" keras30)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in 11 12; do
  KERAS_BACKEND=jax JAX_PLATFORMS=cpu KERAS_HOME="$work/keras" \
    "$venv/bin/python" "$here/keras_cases.py" --count 3000 --seed "$seed" > "$work/cases_$seed.jsonl"
done
KERAS_BACKEND=tensorflow TF_CPP_MIN_LOG_LEVEL=3 KERAS_HOME="$work/keras30" \
  "$venv30/bin/python" "$here/keras30_cases.py" --count 300 --seed 13 > "$work/cases_30.jsonl" 2> "$work/tf.log" \
  || { cat "$work/tf.log" >&2; exit 1; }
python3 "$here/compare_with_keras.py" --lib "$lib" "$work"/cases_*.jsonl
