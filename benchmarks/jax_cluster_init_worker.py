# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""JAX's side of cluster_init_compare.py: one process of a job.

    jax_cluster_init_worker.py HOST:PORT NUM_PROCESSES PROCESS_ID [go]

Reports on stdout, one "TAG <seconds>" per line (time.monotonic, the same
CLOCK_MONOTONIC as the C worker):
  READY  jax imported and waiting for the go signal (only with "go")
  START  about to call jax.distributed.initialize
  INIT   initialize returned
  PAST   past the first barrier
and CPU_START / CPU_PAST: this process's CPU time (user + system, all
threads) at START and at PAST.
With "go" the worker waits, after `import jax`, until its stdin reaches end
of file (the driver closes the pipe every worker shares). Then it shuts down.
"""
import os
import resource
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402  (imported after the platform is pinned)
from jax._src import distributed  # noqa: E402


def report(tag):
    print(f"{tag} {time.monotonic():.6f}", flush=True)


def report_cpu(tag):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{tag} {usage.ru_utime + usage.ru_stime:.6f}", flush=True)


def main():
    if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and sys.argv[4] != "go"):
        sys.exit(f"usage: {sys.argv[0]} HOST:PORT NUM_PROCESSES PROCESS_ID [go]")
    address, num_processes, process_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if len(sys.argv) == 5:
        report("READY")
        while os.read(0, 1):
            pass
    report("START")
    report_cpu("CPU_START")
    jax.distributed.initialize(coordinator_address=address, num_processes=num_processes,
                               process_id=process_id, initialization_timeout=120)
    report("INIT")
    distributed.global_state.client.wait_at_barrier("first", 120000)
    report("PAST")
    report_cpu("CPU_PAST")
    jax.distributed.shutdown()


if __name__ == "__main__":
    main()
