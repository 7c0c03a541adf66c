#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Random meshes and specs, with the Shardy text the real jax prints for them.

The meshes and specs come from jax_cases.py's generator, over axis and mesh
names that need MLIR's quoting and escaping too. jax's side is jax's own
lowering code and Shardy's own printers (jax's bundled MLIR bindings; no
device backend is involved): NamedSharding._to_sdy_sharding gives the
dimension shardings, built into a TensorShardingAttr and printed. One JSON
object per line: the case (mesh shape, axis names, device ids row-major, the
spec as axis groups, the open dims, the mesh name) and
  sdy          the sharding on the mesh symbol, every dim closed
               (#sdy.sharding<@mesh, [...]>)
  sdy_inline   the sharding as jax builds it, mesh inlined, UNCONSTRAINED
               dims open ({?})
  sdy_mesh     the mesh symbol (sdy.mesh @mesh = <[...]>)
Shardy's device ids are logical ids; the assignment is the mesh's devices
sorted by id (Tessera's convention), given to jax as _logical_device_ids.

Usage: shardy_cases.py --count N --seed S --max-devices D > cases.jsonl
"""
import json

import numpy as np
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
from jax._src.lib.mlir.dialects import sdy

from jax_cases import generator_setup, random_mesh_shape, random_spec

AXIS_NAMES = ["x", "y", "dp", "tp", "a\"b", "x y", "t\\p", "\u00fc", "_a.b$", "k\n"]
MESH_NAMES = ["mesh", "mesh", "m1", "my mesh", "_a.b$c", "\u00e9"]


def case(rng, devices, max_devices):
    mesh_shape = random_mesh_shape(rng, max_devices)
    size = int(np.prod(mesh_shape))
    names = rng.sample(AXIS_NAMES, len(mesh_shape))
    ids = rng.sample(range(len(devices)), size)
    rank = rng.randint(0, 4)
    groups = [[names[a] for a in g] for g in random_spec(rng, len(mesh_shape), rank)]
    open_dims = [d for d, g in enumerate(groups) if not g and rng.random() < 0.4]
    return mesh_shape, names, ids, groups, open_dims, rng.choice(MESH_NAMES)


def answer(devices, mesh_shape, names, ids, groups, open_dims, mesh_name):
    mesh = Mesh(np.array([devices[i] for i in ids]).reshape(mesh_shape), tuple(names))
    entry = lambda g: None if not g else (g[0] if len(g) == 1 else tuple(g))
    rank = len(groups)
    closed = NamedSharding(mesh, PartitionSpec(*[entry(g) for g in groups]))
    opened = NamedSharding(mesh, PartitionSpec(
        *[PartitionSpec.UNCONSTRAINED if d in open_dims else entry(g) for d, g in enumerate(groups)]))
    device_ids = [devices[i].id for i in ids]
    logical = tuple(sorted(device_ids).index(i) for i in device_ids)
    with mlir.make_ir_context(), ir.Location.unknown():
        dims = [d.build() for d in closed._to_sdy_sharding(rank).dim_shardings]
        on_symbol = sdy.TensorShardingAttr.get(mesh_name, dims, replicated_axes=[], unreduced_axes=[])
        inline = opened._to_sdy_sharding(rank).replace(logical_device_ids=logical).build({})
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            mesh_op = sdy.MeshOp(mesh_name, sdy.MeshAttr.get(
                [sdy.MeshAxisAttr.get(n, s) for n, s in zip(names, mesh_shape)], list(logical)))
        return {"sdy": str(on_symbol), "sdy_inline": str(inline), "sdy_mesh": str(mesh_op)}


def main():
    args, devices, rng = generator_setup(300, 20261202)
    for _ in range(args.count):
        mesh_shape, names, ids, groups, open_dims, mesh_name = case(rng, devices, args.max_devices)
        row = {"mesh_shape": mesh_shape, "axis_names": names, "device_ids": [devices[i].id for i in ids],
               "spec": groups, "open_dims": open_dims, "mesh_name": mesh_name}
        row.update(answer(devices, mesh_shape, names, ids, groups, open_dims, mesh_name))
        print(json.dumps(row))


if __name__ == "__main__":
    main()
