#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Prints the path of a virtual environment with jax from PyPI (CPU), pinned by
# tests/differential/requirements.txt, creating it on first use. Shared by the
# jax differential test and the side-by-side benchmarks. Given another pins
# file and a name (tests/differential/keras_requirements.txt keras), it makes
# that environment instead: the keras differential test's.
#
# The environment lives in $TESSERA_JAX_VENV (for the default pins), by default
# ~/.cache/tessera/<name>-venv-<hash of the pins>, so a change of pins makes a new one.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pins=${1:-$root/tests/differential/requirements.txt}
name=${2:-jax}
default="${XDG_CACHE_HOME:-$HOME/.cache}/tessera/$name-venv-$(sha256sum "$pins" | cut -c1-12)"
if [ "$name" = jax ]; then venv=${TESSERA_JAX_VENV:-$default}; else venv=$default; fi
# Tests that share a venv start together on a fresh machine (dtensor and
# keras differential both need keras30): the first one creates it while the
# others wait on its lock, instead of deleting each other's files.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if [ ! -f "$venv/.installed" ]; then
  echo "creating $venv ($name from PyPI, pinned by $pins)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$pins" >&2
  touch "$venv/.installed"
fi
echo "$venv"
