#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""jax's devices_indices_map against Tessera's index map, in one run.

For a rank-3 tensor with spec P('a', ('b', 'c'), None) on meshes (A, B, C) of
forced host devices, times jax's NamedSharding.devices_indices_map on shapes it
has not seen (its cache would otherwise answer), then runs Tessera's
index_map_compare (the C ABI) on the same meshes, layout and shapes, and prints
the medians and the ratio. Each mesh runs jax in its own process, since the
forced device count is fixed at start-up.

Usage: jax_index_map_compare.py --venv DIR --tessera path/to/index_map_compare
                                [--mesh 8,8,8 --mesh 16,16,32] [--shapes 200]
"""
import argparse
import os
import subprocess
import sys

JAX_SIDE = r"""
import sys, time
import numpy as np
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
a, b, c, shapes = (int(x) for x in sys.argv[1:5])
mesh = Mesh(np.array(jax.devices()[: a * b * c]).reshape(a, b, c), ("a", "b", "c"))
sharding = NamedSharding(mesh, P("a", ("b", "c"), None))
times = []
for k in range(1, shapes + 1):
    shape = (a * k, b * c * 64 * k, 4)
    start = time.perf_counter_ns()
    index_map = sharding.devices_indices_map(shape)
    times.append(time.perf_counter_ns() - start)
    assert len(index_map) == a * b * c
times.sort()
print(f"jax devices={a * b * c} median_ns={times[len(times) // 2]}")
"""


def run(cmd, env=None):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    fields = dict(f.split("=") for f in out.split()[1:])
    return float(fields["median_ns"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", required=True)
    parser.add_argument("--tessera", required=True)
    parser.add_argument("--mesh", action="append")
    parser.add_argument("--shapes", type=int, default=200)
    args = parser.parse_args()
    meshes = args.mesh or ["8,8,8", "16,16,32"]
    print(f"{'mesh':>10} {'devices':>8} {'jax (us)':>10} {'tessera (us)':>13} {'jax/tessera':>12}")
    worst = None
    for mesh in meshes:
        a, b, c = (int(x) for x in mesh.split(","))
        n = a * b * c
        env = dict(os.environ, JAX_PLATFORMS="cpu",
                   XLA_FLAGS=f"--xla_force_host_platform_device_count={n}")
        jax_ns = run([os.path.join(args.venv, "bin", "python"), "-c", JAX_SIDE,
                      str(a), str(b), str(c), str(args.shapes)], env)
        tessera_ns = run([args.tessera, str(a), str(b), str(c), str(args.shapes), "5"])
        ratio = jax_ns / tessera_ns
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{mesh:>10} {n:>8} {jax_ns / 1e3:>10.1f} {tessera_ns / 1e3:>13.2f} {ratio:>11.0f}x")
    print(f"smallest ratio {worst:.0f}x (target >= 100x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
