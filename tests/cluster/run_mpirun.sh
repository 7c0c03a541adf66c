#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Runs mpirun_worker under Open MPI's mpirun: NP processes that join through
# detection alone (tessera_runtime_initialize(NULL) reading OMPI_* variables).
#
# Usage: run_mpirun.sh WORKER NP
# Exits 77 (meson's "skipped") when no Open MPI mpirun is installed; the
# whole run is bounded by `timeout`, which also takes mpirun's children down.
set -u
worker=$1
np=$2
if ! command -v mpirun >/dev/null 2>&1; then
  echo "mpirun not found: skipped" >&2
  exit 77
fi
if ! mpirun --version 2>&1 | grep -q "Open MPI"; then
  echo "mpirun is not Open MPI ($(mpirun --version 2>&1 | head -n 1)): skipped" >&2
  exit 77
fi
# Root (containers, CI) needs both the flag and the confirmation variables.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The local rank becomes each process's local device id (as JAX does), so
# every process needs at least NP local devices: CPU devices stand in here.
export TESSERA_CPU_DEVICE_COUNT="$np"
# Bounded start-up, and a job token so the coordinator is not insecure.
export TESSERA_INIT_TIMEOUT_MS=30000
export TESSERA_JOB_TOKEN="mpirun-test-$$"
exec timeout --kill-after=5 50 mpirun --allow-run-as-root --oversubscribe -np "$np" \
  -x TESSERA_CPU_DEVICE_COUNT -x TESSERA_INIT_TIMEOUT_MS -x TESSERA_JOB_TOKEN \
  "$worker" "$np"
