#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The GGUF differential test: compare_with_gguf.py in a virtual environment
# with the gguf package from PyPI (gguf_requirements.txt, pinned; made by
# scripts/jax-venv.sh), against the gguf_dump test executable.
#
# Usage: run_gguf_differential.sh path/to/gguf_dump
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dump=${1:?usage: run_gguf_differential.sh path/to/gguf_dump}
venv=$("$here/../../scripts/jax-venv.sh" "$here/gguf_requirements.txt" gguf)
"$venv/bin/python" "$here/compare_with_gguf.py" --dump "$dump" --count 1000 --seed 12
