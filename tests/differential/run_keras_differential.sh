#!/usr/bin/env bash
# The keras differential test: random interleave splits, initialize arguments
# and distributions answered by the real keras (keras-nightly from PyPI, the
# first release with the adapters' interleave split; JAX backend on CPU) and by
# libtessera through its C ABI; fails on any difference. 2 x 3000 cases.
#
# Usage: run_keras_differential.sh path/to/libtessera.so.0
# The virtual environment (keras_requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_keras_differential.sh path/to/libtessera.so.0}
venv=$("$here/../../scripts/jax-venv.sh" "$here/keras_requirements.txt" keras)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for seed in 11 12; do
  KERAS_BACKEND=jax JAX_PLATFORMS=cpu KERAS_HOME="$work/keras" \
    "$venv/bin/python" "$here/keras_cases.py" --count 3000 --seed "$seed" > "$work/cases_$seed.jsonl"
done
python3 "$here/compare_with_keras.py" --lib "$lib" "$work"/cases_*.jsonl
