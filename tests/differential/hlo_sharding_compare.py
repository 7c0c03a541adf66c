#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's free-standing HloSharding with XLA's, through the C ABI.

1. Parse and print: random HloSharding texts (V1 device lists, V2 iotas with
   random reshapes and perms, last_tile_dim_replicate, last_tile_dims with
   random manual/replicated/unreduced/maximal subgroups, and {manual},
   {replicated}, {unknown}, {unreduced}, {maximal device=N}) go through
   jax's xla_client.HloSharding.from_string and str() (XLA's parser and
   printer) and through tessera_hlo_sharding_parse and _to_text; the printed
   strings must be equal, or both sides must refuse the text.
2. Manual axes on export: random meshes with some axes of type Manual and
   random PartitionSpecs over the others; jax's
   NamedSharding._to_xla_hlo_sharding against tessera_hlo_sharding_from_layout
   with those manual axes.

Prints each difference and the totals; exits 1 on any.

Usage (in the jax virtual environment of scripts/jax-venv.sh, with
XLA_FLAGS=--xla_force_host_platform_device_count=8 JAX_PLATFORMS=cpu):
  hlo_sharding_compare.py --lib path/to/libtessera.so.0 [--count N] [--seed S]
"""
import argparse
import ctypes as C
import math
import random
import sys

import jax
import numpy as np
from jax._src.lib import xla_client as xc
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

import tessera_lib

TYPES = ["replicated", "manual", "unreduced", "maximal"]


class Tessera:
    def __init__(self, path):
        self.lib = tessera_lib.load(path)

    def _check(self, handle, err):
        if not handle:
            raise RuntimeError(tessera_lib.take_error(self.lib, err))
        return handle

    def _text(self, sharding):
        err = C.c_void_p()
        buffer = self._check(self.lib.tessera_hlo_sharding_to_text(sharding, C.byref(err)), err)
        self.lib.tessera_hlo_sharding_destroy(sharding)
        return tessera_lib.take_text(self.lib, buffer)

    def reprint(self, text):
        err = C.c_void_p()
        return self._text(self._check(self.lib.tessera_hlo_sharding_parse(text.encode(), C.byref(err)), err))

    def export(self, shape, names, spec, rank, manual):
        lib = self.lib
        err = C.c_void_p()
        mesh = tessera_lib.cpu_mesh(lib, shape, names)
        layout = self._check(lib.tessera_layout_from_partition_spec(spec.encode(), mesh, rank, C.byref(err)), err)
        sharding = self._check(lib.tessera_hlo_sharding_from_layout(layout, rank, tessera_lib.strings(manual),
                                                                    len(manual), C.byref(err)), err)
        lib.tessera_layout_destroy(layout)
        lib.tessera_mesh_destroy(mesh)
        return self._text(sharding)


def factorisations(n, rng):
    """A random list of factors (> 1 mostly) whose product is n."""
    out = []
    while n > 1:
        divisors = [d for d in range(2, n + 1) if n % d == 0]
        d = rng.choice(divisors)
        out.append(d)
        n //= d
    if rng.random() < 0.3:
        out.insert(rng.randrange(len(out) + 1), 1)
    return out or [1]


def random_text(rng):
    if rng.random() < 0.08:
        return rng.choice(["{replicated}", "{manual}", "{unknown}", "{unreduced}",
                           f"{{maximal device={rng.randrange(16)}}}"])
    ndims = rng.randint(1, 4)
    dims = [rng.choice([1, 1, 2, 2, 3, 4]) for _ in range(ndims)]
    n = math.prod(dims)
    if n == 1:
        dims[-1] = 2
        n = 2
    if rng.random() < 0.5:
        reshape = factorisations(n, rng)
        perm = list(range(len(reshape)))
        rng.shuffle(perm)
        body = f"<=[{','.join(map(str, reshape))}]"
        if len(reshape) > 1 or rng.random() < 0.5:
            body += f"T({','.join(map(str, perm))})"
    else:
        pool = list(range(n + (rng.randrange(4) if rng.random() < 0.2 else 0)))
        rng.shuffle(pool)
        body = ",".join(map(str, pool[:n]))
    suffix = ""
    roll = rng.random()
    if roll < 0.3 and ndims > 1:
        suffix = " last_tile_dim_replicate"
    elif roll < 0.8 and ndims > 1:
        k = rng.randint(1, ndims - 1)
        weights = [4, 4, 1, 1]
        suffix = " last_tile_dims={" + ", ".join(rng.choices(TYPES, weights, k=k)) + "}"
    return f"{{devices=[{','.join(map(str, dims))}]{body}{suffix}}}"


def compare_texts(tessera, rng, count):
    compared = differ = refused = 0
    for _ in range(count):
        text = random_text(rng)
        try:
            expected = str(xc.HloSharding.from_string(text))
        except Exception:  # noqa: BLE001 - XLA's parser errors are JaxRuntimeError
            expected = None
        try:
            got = tessera.reprint(text)
        except RuntimeError as e:
            got = None
            message = str(e)
        compared += 1
        if expected is None and got is None:
            refused += 1
            continue
        if expected != got:
            differ += 1
            print(f"DIFF parse/print {text}:\n  xla     {expected}\n  tessera {got if got is not None else message}")
    return compared, differ, refused


def compare_manual_exports(tessera, rng, count):
    devices = jax.devices()
    compared = differ = 0
    for _ in range(count):
        rank = rng.randint(1, 3)
        shape = [rng.choice([1, 2, 2, 4]) for _ in range(rank)]
        while math.prod(shape) > len(devices):
            shape[rng.randrange(rank)] = 1
        names = [f"m{i}" for i in range(rank)]
        order = names[:]
        rng.shuffle(order)
        used = order[:rng.randint(0, rank)]
        manual = [a for a in names if a not in used and rng.random() < 0.6]
        ndim = rng.randint(1, 3)
        entries = [[] for _ in range(ndim)]
        for a in used:
            entries[rng.randrange(ndim)].append(a)
        spec_parts = ["None" if not e else (repr(e[0]) if len(e) == 1 else "(" + ", ".join(map(repr, e)) + ")")
                      for e in entries]
        spec_text = "P(" + ", ".join(spec_parts) + ("," if ndim == 1 else "") + ")"
        spec = P(*[None if not e else (e[0] if len(e) == 1 else tuple(e)) for e in entries])
        types = tuple(AxisType.Manual if a in manual else AxisType.Explicit for a in names)
        mesh = Mesh(np.array(devices[:math.prod(shape)]).reshape(shape), tuple(names), axis_types=types)
        expected = str(NamedSharding(mesh, spec)._to_xla_hlo_sharding(ndim))
        try:
            got = tessera.export(shape, names, spec_text, ndim, manual)
        except RuntimeError as e:
            got = f"error: {e}"
        compared += 1
        if expected != got:
            differ += 1
            print(f"DIFF export {shape} {names} {spec_text} manual={manual}:\n  jax     {expected}\n  tessera {got}")
    return compared, differ


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    tessera = Tessera(args.lib)
    rng = random.Random(args.seed)
    texts, text_differ, refused = compare_texts(tessera, rng, args.count)
    exports, export_differ = compare_manual_exports(tessera, rng, args.count // 3)
    differ = text_differ + export_differ
    print(f"{texts} HloSharding texts parsed and printed ({refused} refused by both), "
          f"{exports} exports with manual axes; {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
