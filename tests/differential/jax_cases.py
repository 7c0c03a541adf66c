#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Random meshes, specs and shapes, answered by the real jax (the reference).

Writes one JSON object per line: the case (mesh shape, axis names, device ids
in row-major order, the spec as a list of axis groups per tensor dimension,
the global shape) and jax's answers for it:
  index_map   per device in mesh order, [start, stop) per dimension
              (jax's slice(None) written as [0, n])
  shard_shape jax's NamedSharding.shard_shape
  replica_ids jax's device_replica_id_map, per device in mesh order
  hlo_v2      str(NamedSharding._to_xla_hlo_sharding(rank)), XLA's own text

Shapes are divisible (jax is strict outside jit). Run with
XLA_FLAGS=--xla_force_host_platform_device_count=64 JAX_PLATFORMS=cpu.

Usage: jax_cases.py --count N --seed S --max-devices D > cases.jsonl
"""
import argparse
import json
import random
import sys

import numpy as np
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax._src.sharding_impls import device_replica_id_map

AXIS_SIZES = [1, 2, 2, 2, 3, 4, 4, 8]


def random_mesh_shape(rng, max_devices):
    rank = rng.randint(1, 4)
    shape = []
    for _ in range(rank):
        room = max_devices // max(1, int(np.prod(shape)) if shape else 1)
        choices = [s for s in AXIS_SIZES if s <= room]
        shape.append(rng.choice(choices))
    return shape


def random_spec(rng, num_axes, rank):
    """Each mesh axis goes unused or to one tensor dim; order within a dim is random."""
    groups = [[] for _ in range(rank)]
    if rank == 0:
        return groups
    for axis in range(num_axes):
        if rng.random() < 0.6:
            groups[rng.randrange(rank)].append(axis)
    for g in groups:
        rng.shuffle(g)
    return groups


def case(rng, devices, max_devices):
    mesh_shape = random_mesh_shape(rng, max_devices)
    size = int(np.prod(mesh_shape))
    names = [f"a{i}" for i in range(len(mesh_shape))]
    ids = rng.sample(range(len(devices)), size)
    rank = rng.randint(0, 4)
    groups = random_spec(rng, len(mesh_shape), rank)
    shape = []
    for g in groups:
        k = int(np.prod([mesh_shape[a] for a in g])) if g else 1
        shape.append(0 if rng.random() < 0.03 else k * rng.randint(1, 3))
    spec_groups = [[names[a] for a in g] for g in groups]
    return mesh_shape, names, ids, spec_groups, shape


def answer(devices, mesh_shape, names, ids, spec_groups, shape):
    mesh_devices = np.array([devices[i] for i in ids]).reshape(mesh_shape)
    mesh = Mesh(mesh_devices, tuple(names))
    entries = [None if not g else (g[0] if len(g) == 1 else tuple(g)) for g in spec_groups]
    sharding = NamedSharding(mesh, PartitionSpec(*entries))
    index_map = sharding.devices_indices_map(tuple(shape))
    replica = device_replica_id_map(sharding, tuple(shape))
    flat = list(mesh_devices.flat)

    def ranges(slices):
        out = []
        for dim, s in enumerate(slices):
            start = 0 if s.start is None else s.start
            stop = shape[dim] if s.stop is None else s.stop
            out.append([start, stop])
        return out

    return {
        "index_map": [ranges(index_map[d]) for d in flat],
        "shard_shape": list(sharding.shard_shape(tuple(shape))),
        "replica_ids": [replica[d] for d in flat],
        "hlo_v2": str(sharding._to_xla_hlo_sharding(len(shape))),
    }


def generator_setup(count, seed):
    """The command line of a jax case generator (--count, --seed, --max-devices),
    jax's devices checked against it, and the seeded RNG: (args, devices, rng)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=count)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--max-devices", type=int, default=64)
    args = parser.parse_args()
    devices = jax.devices()
    if len(devices) < args.max_devices:
        sys.exit(f"jax sees {len(devices)} devices, need {args.max_devices}: "
                 "set XLA_FLAGS=--xla_force_host_platform_device_count")
    return args, devices, random.Random(args.seed)


def main():
    args, devices, rng = generator_setup(500, 20261130)
    for _ in range(args.count):
        mesh_shape, names, ids, spec_groups, shape = case(rng, devices, args.max_devices)
        row = {"mesh_shape": mesh_shape, "axis_names": names,
               "device_ids": [devices[i].id for i in ids], "spec": spec_groups, "shape": shape}
        row.update(answer(devices, mesh_shape, names, ids, spec_groups, shape))
        print(json.dumps(row))


if __name__ == "__main__":
    main()
