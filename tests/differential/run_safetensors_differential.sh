#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The safetensors differential test: files written by the `safetensors`
# package (numpy and, for the dtypes numpy lacks, raw headers it accepts),
# sharded indexes, and malformed files, read by Tessera's dump tool and by the
# package; fails on any difference.
#
# Usage: run_safetensors_differential.sh path/to/safetensors_dump
# The virtual environment (safetensors_requirements.txt, pinned) comes from
# scripts/jax-venv.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dump=${1:?usage: run_safetensors_differential.sh path/to/safetensors_dump}
venv=$("$here/../../scripts/jax-venv.sh" "$here/safetensors_requirements.txt" safetensors)
exec "$venv/bin/python" "$here/compare_with_safetensors.py" --dump "$dump" --count 1000 --seed 31
