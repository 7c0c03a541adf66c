#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Side by side: planning the restore of a 70B Llama saved on 64 devices onto
# 128, with torch.distributed.checkpoint's DefaultLoadPlanner (torch CPU from
# PyPI, pinned) and with Tessera's resharding plan through the C ABI
# (issue 13). Prints medians and the ratio; a benchmark, not a test.
#
# Usage: benchmarks/torch_reshard_compare.sh [BUILD_DIR] [--layout fsdp|2d|all] [--rounds N]
# The virtual environment (tests/differential/torch_requirements.txt, pinned)
# comes from scripts/jax-venv.sh, shared with the torch differential test.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
venv=$("$root/scripts/jax-venv.sh" "$root/tests/differential/torch_requirements.txt" torch)
ninja -C "$build" benchmarks/reshard_compare >/dev/null
"$venv/bin/python" "$root/benchmarks/torch_reshard_compare.py" \
  --tessera "$build/benchmarks/reshard_compare" "$@"
