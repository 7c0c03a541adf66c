#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# `reuse lint` (PyPI `reuse`, pinned by reuse_requirements.txt) over the
# source tree: every file has its copyright and licence, from its own SPDX
# lines (source files) or from REUSE.toml (data, documents, packaging).
#
# Usage: run_reuse_lint.sh SOURCE_ROOT
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=${1:?usage: run_reuse_lint.sh SOURCE_ROOT}
venv=$("$here/../../scripts/jax-venv.sh" "$here/reuse_requirements.txt" reuse)
exec "$venv/bin/reuse" --root "$root" lint
