#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's TPU torus placement (sharding_cases.md S41) with jax's.

jax side: jax.experimental.mesh_utils.create_device_mesh over stand-in TPU
devices (id, platform, device_kind, coords, core_on_chip: all it reads).
Tessera side: the same slice listed in TESSERA_DEVICES ("tpu*64:TPU
v4@4x4x4", device i = core i % C, then x, y, z) and tessera_mesh_make
through the C ABI, which is jax.make_mesh (physical axes split for v5e). For
every topology and every mesh shape of up to three axes whose product is the
device count, with the devices in list order and once shuffled, the device ids
in mesh order, or the error messages, must be equal. The same for
create_device_mesh (tessera_mesh_create_device_mesh) with every combination
of allow_split_physical_axes and contiguous_submeshes, for the physical-to-
logical assignment matrix (tessera_mesh_tpu_axis_assignment against the
matrix _create_device_mesh_for_nd_torus returns), and for device counts that
are not the mesh size (create_device_mesh refuses them, make_mesh truncates).
Prints each difference and the totals; exits 1 on any.

Usage (in the jax virtual environment of scripts/jax-venv.sh):
  tpu_mesh_compare.py --lib path/to/libtessera.so.0
"""
import argparse
import ctypes as C
import math
import os
import random
import sys

import numpy as np
from jax._src import mesh_utils as mesh_utils_impl
from jax.experimental import mesh_utils

import tessera_lib

# (device_kind, chips x, y, z, cores per chip): the torus placement, and the
# small slices jax's per-kind handlers order (v4 lite, v5e/v6e, v5p, 7x).
TOPOLOGIES = [
    ("TPU v4", 2, 2, 1, 1),
    ("TPU v4", 2, 2, 2, 1),
    ("TPU v4", 2, 2, 4, 1),
    ("TPU v4", 4, 4, 4, 1),
    ("TPU v4", 4, 4, 8, 1),
    ("TPU v4", 4, 8, 8, 1),
    ("TPU v4 lite", 2, 2, 1, 1),
    ("TPU v5 lite", 2, 2, 1, 1),
    ("TPU v5 lite", 4, 2, 1, 1),
    ("TPU v5 lite", 2, 2, 2, 1),
    ("TPU v5 lite", 4, 4, 1, 1),
    ("TPU v5 lite", 8, 8, 1, 1),
    ("TPU v6 lite", 4, 4, 1, 1),
    ("TPU v5p", 2, 2, 2, 1),
    ("TPU v5p", 2, 2, 1, 2),
    ("TPU7x", 2, 2, 2, 2),
    ("TPU7x", 2, 2, 4, 2),
    ("TPU7x", 4, 4, 4, 2),
]


class FakeTpu:
    platform = "tpu"

    def __init__(self, i, kind, coords, core):
        self.id = i
        self.device_kind = kind
        self.coords = coords
        self.core_on_chip = core

    def __repr__(self):
        return f"tpu:{self.id}"


def devices(kind, x, y, z, cores):
    out = []
    for i in range(x * y * z * cores):
        chip = i // cores
        out.append(FakeTpu(i, kind, (chip % x, chip // x % y, chip // (x * y)), i % cores))
    return out


def shapes(n, max_rank=3):
    def splits(n, rank):
        if rank == 1:
            yield (n,)
            return
        for d in range(1, n + 1):
            if n % d == 0:
                for rest in splits(n // d, rank - 1):
                    yield (d,) + rest
    for rank in range(1, max_rank + 1):
        yield from splits(n, rank)


class Tessera:
    def __init__(self, path):
        self.lib = tessera_lib.load(path)

    def assignment(self, physical, shape, split):
        """tessera_mesh_tpu_axis_assignment as rows per physical axis, or the error message."""
        lib = self.lib
        options = lib.tessera_mesh_options_create()
        lib.tessera_mesh_options_set_allow_split_physical_axes(options, split, None)
        out = (C.c_int64 * (len(physical) * len(shape)))()
        err = C.c_void_p()
        n = lib.tessera_mesh_tpu_axis_assignment(tessera_lib.int64s(physical), len(physical),
                                                 tessera_lib.int64s(shape), len(shape), options,
                                                 out, len(out), C.byref(err))
        lib.tessera_mesh_options_destroy(options)
        if n == 0:
            return tessera_lib.take_error(lib, err)
        return [list(out[p * len(shape):(p + 1) * len(shape)]) for p in range(len(physical))]

    def mesh_ids(self, shape, kind, ids, create=None, platform="tpu"):
        """Device ids in mesh order over devices `ids` (in that order), or the error message.

        create None: tessera_mesh_make; else (allow_split, contiguous) for
        tessera_mesh_create_device_mesh."""
        lib = self.lib
        dims = tessera_lib.int64s(shape)
        names = tessera_lib.strings([f"a{i}" for i in range(len(shape))])
        devices = tessera_lib.strings([f"{platform}:{i}" for i in ids])
        err = C.c_void_p()
        options = lib.tessera_mesh_options_create()
        lib.tessera_mesh_options_set_devices(options, devices, len(ids), None)
        if kind:
            lib.tessera_mesh_options_set_device_kind(options, kind.encode(), None)
        if create is None:
            mesh = lib.tessera_mesh_make(dims, names, len(shape), options, C.byref(err))
        else:
            lib.tessera_mesh_options_set_allow_split_physical_axes(options, create[0], None)
            lib.tessera_mesh_options_set_contiguous_submeshes(options, create[1], None)
            mesh = lib.tessera_mesh_create_device_mesh(dims, names, len(shape), options, C.byref(err))
        lib.tessera_mesh_options_destroy(options)
        if not mesh:
            return tessera_lib.take_error(lib, err)
        ids = tessera_lib.device_ids(lib, mesh)
        lib.tessera_mesh_destroy(mesh)
        return ids


def jax_ids(shape, devs):
    # jax.make_mesh's choice (it needs real devices to build a Mesh).
    split = devs[0].device_kind in ("TPU v5 lite", "TPU v5e")
    try:
        return [d.id for d in mesh_utils.create_device_mesh(shape, devs, allow_split_physical_axes=split).reshape(-1)]
    except (ValueError, NotImplementedError, AssertionError) as e:
        return str(e)


def jax_create_ids(shape, devs, split, contiguous):
    try:
        mesh = mesh_utils.create_device_mesh(shape, devs, allow_split_physical_axes=split,
                                             contiguous_submeshes=contiguous)
        return [d.id for d in mesh.reshape(-1)]
    except (ValueError, NotImplementedError, AssertionError) as e:
        return str(e)


def jax_assignment(physical, shape, split):
    try:
        _, matrix = mesh_utils_impl._create_device_mesh_for_nd_torus(
            np.arange(math.prod(physical)).reshape(physical), shape, allow_split_physical_axes=split)
        return matrix.tolist()
    except (ValueError, NotImplementedError) as e:
        return str(e)


class PlainDevice:
    """A GPU or CPU stand-in: create_device_mesh reads id, platform and device_kind."""

    def __init__(self, i, platform):
        self.id = i
        self.platform = platform
        self.device_kind = ""


def compare_counts(tessera, rng):
    """create_device_mesh refuses a device count other than the mesh size; make_mesh truncates."""
    compared = differ = 0
    for _ in range(200):
        platform = rng.choice(["gpu", "cpu"])
        shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))
        n = rng.randint(1, 2 * math.prod(shape))
        ids = list(range(n))
        rng.shuffle(ids)
        devs = [PlainDevice(i, platform) for i in ids]
        expected = jax_create_ids(shape, devs, False, False)
        got = tessera.mesh_ids(shape, "", ids, create=(False, False), platform=platform)
        compared += 1
        if expected != got:
            differ += 1
            print(f"DIFF create_device_mesh {platform} {shape} over {ids}:\n  jax     {expected}\n  tessera {got}")
        if n >= math.prod(shape):
            # jax.make_mesh: the first prod(shape) devices through create_device_mesh.
            expected = jax_create_ids(shape, devs[:math.prod(shape)], False, False)
        else:
            expected = f"Number of devices {n} must be >= the product of mesh_shape {shape}"
        got = tessera.mesh_ids(shape, "", ids, platform=platform)
        compared += 1
        if expected != got:
            differ += 1
            print(f"DIFF make_mesh {platform} {shape} over {ids}:\n  jax     {expected}\n  tessera {got}")
    return compared, differ


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    args = parser.parse_args()
    tessera = Tessera(args.lib)
    rng = random.Random(41)
    compared = differ = errors = created = assigned = 0
    for kind, x, y, z, cores in TOPOLOGIES:
        place = f"{x}x{y}x{z}" + (f"x{cores}" if cores > 1 else "")
        n = x * y * z * cores
        os.environ["TESSERA_DEVICES"] = f"tpu*{n}:{kind}@{place}"
        devs = devices(kind, x, y, z, cores)
        shuffled = list(range(n))
        rng.shuffle(shuffled)
        for order in (list(range(n)), shuffled):
            for shape in shapes(n):
                expected = jax_ids(shape, [devs[i] for i in order])
                got = tessera.mesh_ids(shape, kind, order)
                compared += 1
                errors += isinstance(expected, str)
                if expected != got:
                    differ += 1
                    print(f"DIFF {kind} {place} {shape} order {order[:8]}...:\n  jax     {expected}\n"
                          f"  tessera {got}")
                for create in ((False, True), (True, False), (True, True)) if order is shuffled else ():
                    expected = jax_create_ids(shape, [devs[i] for i in order], *create)
                    got = tessera.mesh_ids(shape, kind, order, create=create)
                    created += 1
                    if expected != got:
                        differ += 1
                        print(f"DIFF create_device_mesh{create} {kind} {place} {shape}:\n  jax     {expected}\n"
                              f"  tessera {got}")
        physical = (x, y, z, cores) if cores > 1 else (x, y, z)
        for shape in shapes(n):
            for split in (False, True):
                expected = jax_assignment(physical, shape, split)
                got = tessera.assignment(physical, shape, split)
                assigned += 1
                if expected != got:
                    differ += 1
                    print(f"DIFF assignment split={split} {physical} {shape}:\n  jax     {expected}\n"
                          f"  tessera {got}")
    counted, count_differ = compare_counts(tessera, rng)
    differ += count_differ
    print(f"{compared} meshes compared ({errors} of them errors in jax), {created} create_device_mesh flag "
          f"combinations, {assigned} assignment matrices, {counted} device-count cases; {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
