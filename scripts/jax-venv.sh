#!/usr/bin/env bash
# Prints the path of a virtual environment with jax from PyPI (CPU), pinned by
# tests/differential/requirements.txt, creating it on first use. Shared by the
# jax differential test and the side-by-side benchmarks.
#
# The environment lives in $TESSERA_JAX_VENV, by default
# ~/.cache/tessera/jax-venv-<hash of the pins>, so a change of pins makes a new one.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pins="$root/tests/differential/requirements.txt"
venv=${TESSERA_JAX_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/jax-venv-$(sha256sum "$pins" | cut -c1-12)}
if [ ! -f "$venv/.installed" ]; then
  echo "creating $venv (jax from PyPI, pinned by $pins)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$pins" >&2
  touch "$venv/.installed"
fi
echo "$venv"
