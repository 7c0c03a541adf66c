#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Times Keras's LayoutMap.__getitem__ against Tessera's layout-map lookup on
# the same rules and paths (1,000 rules and 10 rules, 100,000 paths) and
# prints the per-lookup medians and their ratios.
#
# Usage: benchmarks/keras_layout_map_compare.sh [BUILD_DIR]
#   BUILD_DIR  a configured Meson build directory (default: build); the
#              layout_map_compare program is built there if needed.
# Environment:
#   TESSERA_KERAS_VENV  the virtual environment to create or reuse
#                       (default: BUILD_DIR/keras-venv)
#   Extra arguments for the Python side: KERAS_COMPARE_ARGS (e.g. "--sample 500").
#
# Keras 3.13.2 is the last release whose LayoutMap matches keys with
# re.search (3.14 switched to re.fullmatch); Keras needs a backend to import,
# and its numpy backend imports JAX too, so JAX's CPU build is installed.
set -euo pipefail

KERAS_VERSION=3.13.2
JAX_VERSION=0.10.2

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:-build}" && pwd)"
venv="${TESSERA_KERAS_VENV:-$build/keras-venv}"
work="$build/benchmarks/keras-compare"

if [[ ! -x "$venv/bin/python" ]]; then
  echo "creating the virtual environment $venv"
  python3 -m venv "$venv"
fi
echo "virtual environment: $venv"
if ! "$venv/bin/python" -c "import keras, sys; sys.exit(keras.__version__ != '$KERAS_VERSION')" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    "keras==$KERAS_VERSION" "jax[cpu]==$JAX_VERSION"
fi

ninja -C "$build" benchmarks/layout_map_compare >/dev/null
mkdir -p "$work"
python3 "$here/layout_map_workload.py" --out "$work" --paths 100000

# Pin both sides to one core's worth of work: JAX is imported but idle.
KERAS_BACKEND=jax JAX_PLATFORMS=cpu "$venv/bin/python" "$here/keras_layout_map_compare.py" \
  --tessera-compare "$build/benchmarks/layout_map_compare" --work "$work" \
  ${KERAS_COMPARE_ARGS:-}
