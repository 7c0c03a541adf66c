#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's PartitionSpec errors with jax's, through the C ABI.

Random PartitionSpec texts over random meshes (axes named more than once,
inside and across tuples; axes the mesh lacks; nested tuples and lists;
specs longer than the rank, scalars included) go to jax (PartitionSpec,
NamedSharding, check_compatible_aval) and to tessera_layout_from_partition_spec.
Both must accept, or both refuse with jax's words: the duplicate-axis and
unknown-axis messages whole, the nested-tuple message after Tessera's
position prefix, and the rank message from " is only valid" on (jax names the
whole NamedSharding before it, Tessera the spec).

Usage (in the jax virtual environment of scripts/jax-venv.sh, with
XLA_FLAGS=--xla_force_host_platform_device_count=8 JAX_PLATFORMS=cpu):
  jax_spec_errors_compare.py --lib path/to/libtessera.so.0 [--count N] [--seed S]
"""
import argparse
import ctypes as C
import math
import random
import sys

import jax
import numpy as np
from jax._src.named_sharding import DuplicateSpecError
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import tessera_lib


def layout_error(lib, shape, names, spec, rank):
    """None when Tessera accepts the spec, else its message."""
    mesh = tessera_lib.cpu_mesh(lib, shape, names)
    err = C.c_void_p()
    layout = lib.tessera_layout_from_partition_spec(spec.encode(), mesh, rank, C.byref(err))
    lib.tessera_mesh_destroy(mesh)
    if layout:
        lib.tessera_layout_destroy(layout)
        return None
    return tessera_lib.take_error(lib, err)


def random_entry(rng, pool, depth=0):
    roll = rng.random()
    if roll < 0.15:
        return None
    if roll < 0.6 or depth > 0 and roll < 0.8:
        return rng.choice(pool)
    members = [random_entry(rng, pool, depth + 1) if rng.random() < 0.1 else rng.choice(pool)
               for _ in range(rng.randint(1, 3))]
    return members if rng.random() < 0.2 else tuple(members)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()
    lib = tessera_lib.load(args.lib)
    rng = random.Random(args.seed)
    devices = jax.devices()
    compared = differ = refused = 0
    for _ in range(args.count):
        mesh_rank = rng.randint(1, 3)
        shape = [rng.choice([1, 2, 2, 4]) for _ in range(mesh_rank)]
        while math.prod(shape) > len(devices):
            shape[rng.randrange(mesh_rank)] = 1
        names = ["x", "y", "z"][:mesh_rank]
        pool = names + ["w"] * (rng.random() < 0.2)
        entries = [random_entry(rng, pool) for _ in range(rng.randint(0, 3))]
        spec_text = "P(" + ", ".join(repr(e) for e in entries) + ("," if len(entries) == 1 else "") + ")"
        rank = rng.randint(0, 3)
        got = layout_error(lib, shape, names, spec_text, rank)
        try:
            spec = P(*entries)
            mesh = Mesh(np.array(devices[:math.prod(shape)]).reshape(shape), tuple(names))
            NamedSharding(mesh, spec).check_compatible_aval((2,) * rank)
            expected = None
        except (ValueError, DuplicateSpecError) as e:
            expected = str(e)
        compared += 1
        if expected is None or got is None:
            ok = expected is None and got is None
        elif "nested tuple" in expected:
            ok = got.endswith(expected)
        elif " is only valid" in expected:
            ok = got.endswith(expected[expected.index(" is only valid"):])
        else:
            ok = got == expected
        refused += expected is not None
        if not ok:
            differ += 1
            print(f"DIFF mesh {shape} {spec_text} rank {rank}:\n  jax     {expected}\n  tessera {got}")
    print(f"{compared} PartitionSpecs compared ({refused} refused by jax); {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
