#!/usr/bin/env bash
# The sharded-save differential test: checkpoints saved through
# tessera/experimental/checkpoint_save.h, opened by the `safetensors` package
# and compared with numpy's slices; fails on any difference.
#
# Usage: run_save_differential.sh path/to/libtessera.so
# The virtual environment (safetensors_requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${1:?usage: run_save_differential.sh path/to/libtessera.so}
venv=$("$here/../../scripts/jax-venv.sh" "$here/safetensors_requirements.txt" safetensors)
exec "$venv/bin/python" "$here/compare_save_with_safetensors.py" --lib "$lib" --count 200 --seed 13
