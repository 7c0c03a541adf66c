"""JAX's side of cluster_init_compare.py: one process of a job.

Prints "START <s>" before jax.distributed.initialize and "PAST <s>" once past
the first barrier (time.monotonic, the same CLOCK_MONOTONIC as the C worker),
then shuts down. Usage: jax_cluster_init_worker.py HOST:PORT NUM_PROCESSES PROCESS_ID
"""
import os
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402  (imported after the platform is pinned)
from jax._src import distributed  # noqa: E402

address, num_processes, process_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
print(f"START {time.monotonic():.6f}", flush=True)
jax.distributed.initialize(coordinator_address=address, num_processes=num_processes,
                           process_id=process_id, initialization_timeout=120)
distributed.global_state.client.wait_at_barrier("first", 120000)
print(f"PAST {time.monotonic():.6f}", flush=True)
jax.distributed.shutdown()
