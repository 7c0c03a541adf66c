#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The /metrics scrape test (check_metrics.py) in a virtual environment with
# prometheus_client from PyPI, pinned by metrics_requirements.txt (made once by
# scripts/jax-venv.sh, cached by the pins' hash).
#
# Usage: run_metrics_scrape.sh path/to/tessera path/to/cluster_worker
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv=$("$here/../../scripts/jax-venv.sh" "$here/metrics_requirements.txt" prometheus)
exec "$venv/bin/python" "$here/check_metrics.py" "$@"
