# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Restore against jax (issue 13): random tensors saved by sharded_writer under
a random layout A on a random mesh (1 to 8 processes), restored through
libtessera under a random layout B on an 8-device mesh for every process of
jobs of 1, 2, 4 and 8 processes; each restored shard must be exactly the
bytes jax places on that device when it puts the original array under B
(jax.device_put with NamedSharding, addressable_shards). Strict mode, as
jax.device_put.

Usage (jax venv, XLA_FLAGS=--xla_force_host_platform_device_count=8):
  compare_restore_with_jax.py --lib libtessera.so --cases 40 --seed 13
"""
import argparse
import os
import random
import shutil
import sys
import tempfile

import jax
import numpy as np
from jax.sharding import Mesh as JaxMesh
from jax.sharding import NamedSharding, PartitionSpec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import restore_lib  # noqa: E402
import restore_round_trips as rt  # noqa: E402
import sharded_writer as sw  # noqa: E402

MESHES_8 = [[("x", 8)], [("x", 2), ("y", 4)], [("x", 4), ("y", 2)], [("x", 2), ("y", 2), ("z", 2)],
            [("x", 1), ("y", 8)]]


def jax_shards(array, mesh, layout):
    devices = np.array(jax.devices()[:mesh.size]).reshape(mesh.sizes)
    spec = PartitionSpec(*[None if not g else (g[0] if len(g) == 1 else tuple(g)) for g in layout])
    placed = jax.device_put(array, NamedSharding(JaxMesh(devices, tuple(mesh.names)), spec))
    return {s.device.id: np.asarray(s.data).tobytes() for s in placed.addressable_shards}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    lib = restore_lib.load(args.lib)
    rng = random.Random(args.seed)
    root = tempfile.mkdtemp(prefix="tessera_restore_jax_")
    compared = differences = 0
    try:
        for case in range(args.cases):
            directory = os.path.join(root, f"case{case}")
            os.mkdir(directory)
            mesh_a = rt.random_mesh(rng)
            mesh_b = sw.Mesh(rng.choice(MESHES_8))
            arrays, saved, rules = {}, [], {}
            for t in range(rng.randint(1, 3)):
                shape = tuple(rng.choice([2, 4, 6, 8, 12, 16]) for _ in range(rng.choice([1, 2, 3])))
                array = np.random.default_rng(rng.randrange(1 << 30)).standard_normal(shape).astype(
                    rng.choice([np.float32, np.float16]))
                name = f"t{t}"
                arrays[name] = array
                mode_a = rng.choice(["strict", "chunk-flat"])
                saved.append((name, array, mesh_a, rt.random_layout(rng, mesh_a, shape, mode_a), mode_a))
                rules[name] = rt.random_layout(rng, mesh_b, shape, "strict")
            sw.save(directory, saved, rt.random_processes(rng, mesh_a.size), fork=False)
            expected = {name: jax_shards(arrays[name], mesh_b, rules[name]) for name in arrays}
            names = list(arrays)
            for num in (1, 2, 4, 8):
                for process in range(num):
                    pieces, _, _, _ = restore_lib.restore(lib, directory, mesh_b, rules, "strict", process, num)
                    for device, tensor, ranges, data in pieces:
                        compared += 1
                        if data != expected[names[tensor]][device]:
                            differences += 1
                            print(f"case {case} {names[tensor]} on {mesh_b.spec()} under {rules[names[tensor]]}: "
                                  f"device {device} {ranges} differs from jax's shard (process {process} of {num})")
            shutil.rmtree(directory)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{compared - differences} of {compared} restored shards equal jax's addressable shards "
          f"({args.cases} checkpoints, jobs of 1, 2, 4 and 8 processes)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
