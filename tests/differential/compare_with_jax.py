#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's answers, through the public C ABI (ctypes), with jax's.

Reads the cases jax_cases.py wrote (jax's answers included) and, for each,
builds the same mesh, layout and shape with libtessera, then compares:
the per-device index ranges (one by one and as the bulk map), the shard shape, the replica ids and the V2
HloSharding text. Prints every difference and the totals; exits 1 on any.

Usage: compare_with_jax.py --lib path/to/libtessera.so.0 cases.jsonl [...]
"""
import argparse
import ctypes as C
import json
import sys

from tessera_ctypes import Library

I64P = C.POINTER(C.c_int64)


class Tessera(Library):
    """The few C ABI calls the comparison needs, with errors raised."""

    def __init__(self, path):
        sig = {
            "tessera_error_message": (C.c_char_p, [C.c_void_p]),
            "tessera_error_destroy": (None, [C.c_void_p]),
            "tessera_mesh_options_create": (C.c_void_p, []),
            "tessera_mesh_options_destroy": (None, [C.c_void_p]),
            "tessera_mesh_options_set_devices": (C.c_bool, [C.c_void_p, C.POINTER(C.c_char_p), C.c_size_t,
                                                            C.POINTER(C.c_void_p)]),
            "tessera_mesh_create": (C.c_void_p, [I64P, C.POINTER(C.c_char_p), C.c_size_t, C.c_void_p,
                                                 C.POINTER(C.c_void_p)]),
            "tessera_mesh_destroy": (None, [C.c_void_p]),
            "tessera_layout_create_grouped": (C.c_void_p, [C.POINTER(C.c_char_p), C.c_size_t,
                                                           C.POINTER(C.c_size_t), C.c_size_t, C.c_void_p,
                                                           C.POINTER(C.c_void_p)]),
            "tessera_layout_destroy": (None, [C.c_void_p]),
            "tessera_sharding_create": (C.c_void_p, [C.c_void_p, I64P, C.c_size_t, C.c_int,
                                                     C.POINTER(C.c_void_p)]),
            "tessera_sharding_destroy": (None, [C.c_void_p]),
            "tessera_sharding_device_ranges": (C.c_size_t, [C.c_void_p, C.c_size_t, I64P, C.c_size_t,
                                                            C.POINTER(C.c_void_p)]),
            "tessera_sharding_index_map": (C.c_size_t, [C.c_void_p, I64P, C.c_size_t,
                                                        C.POINTER(C.c_void_p)]),
            "tessera_sharding_replica_id": (C.c_bool, [C.c_void_p, C.c_size_t, C.POINTER(C.c_size_t),
                                                       C.POINTER(C.c_void_p)]),
            "tessera_sharding_max_shard_shape": (C.c_size_t, [C.c_void_p, I64P, C.c_size_t,
                                                              C.POINTER(C.c_void_p)]),
            "tessera_layout_to_hlo_sharding": (C.c_void_p, [C.c_void_p, C.c_size_t, C.c_bool,
                                                            C.POINTER(C.c_void_p)]),
            "tessera_buffer_data": (C.c_char_p, [C.c_void_p]),
            "tessera_buffer_destroy": (None, [C.c_void_p]),
        }
        super().__init__(path, sig)


def i64(values):
    return (C.c_int64 * max(1, len(values)))(*values)


def strs(values):
    return (C.c_char_p * max(1, len(values)))(*[v.encode() for v in values])


def tessera_answers(t, case):
    lib = t.lib
    shape = case["shape"]
    rank = len(shape)
    options = lib.tessera_mesh_options_create()
    try:
        t.call("tessera_mesh_options_set_devices", options, strs([f"cpu:{i}" for i in case["device_ids"]]),
               len(case["device_ids"]))
        mesh = t.call("tessera_mesh_create", i64(case["mesh_shape"]), strs(case["axis_names"]),
                      len(case["mesh_shape"]), options)
    finally:
        lib.tessera_mesh_options_destroy(options)
    layout = sharding = text = None
    try:
        flat = [a for g in case["spec"] for a in g]
        sizes = (C.c_size_t * max(1, rank))(*[len(g) for g in case["spec"]])
        layout = t.call("tessera_layout_create_grouped", strs(flat), len(flat), sizes, rank, mesh)
        sharding = t.call("tessera_sharding_create", layout, i64(shape), rank, 0)
        ranges = i64([0] * (2 * rank))
        index_map, replica_ids = [], []
        replica = C.c_size_t()
        for d in range(len(case["device_ids"])):
            t.call("tessera_sharding_device_ranges", sharding, d, ranges, 2 * rank)
            index_map.append([[ranges[2 * i], ranges[2 * i + 1]] for i in range(rank)])
            t.call("tessera_sharding_replica_id", sharding, d, C.byref(replica))
            replica_ids.append(replica.value)
        # The bulk map must agree with the per-device queries.
        size = len(case["device_ids"]) * rank * 2
        flat = i64([0] * size)
        t.call("tessera_sharding_index_map", sharding, flat, size)
        bulk = [[[flat[(d * rank + i) * 2], flat[(d * rank + i) * 2 + 1]] for i in range(rank)]
                for d in range(len(case["device_ids"]))]
        if bulk != index_map:
            raise RuntimeError(f"tessera_sharding_index_map {bulk} differs from the per-device ranges")
        out = i64([0] * rank)
        t.call("tessera_sharding_max_shard_shape", sharding, out, rank)
        text = t.call("tessera_layout_to_hlo_sharding", layout, rank, True)
        return {"index_map": index_map, "shard_shape": [out[i] for i in range(rank)],
                "replica_ids": replica_ids, "hlo_v2": lib.tessera_buffer_data(text).decode()}
    finally:
        lib.tessera_buffer_destroy(text)
        lib.tessera_sharding_destroy(sharding)
        lib.tessera_layout_destroy(layout)
        lib.tessera_mesh_destroy(mesh)


def cases_in(paths):
    """(path, line number, case) for every JSON-lines case in `paths`."""
    for path in paths:
        with open(path) as f:
            for line_number, line in enumerate(f, 1):
                yield path, line_number, json.loads(line)


def run_cases(name, paths, answers, describe, expected):
    """Compares `answers(case)` (Tessera's, a dict) with `expected(case)` (jax's)
    key by key for every case in `paths`; prints each difference and the totals
    under `name`. Returns the exit status: 1 on any difference or no case."""
    cases = differences = 0
    for path, line_number, case in cases_in(paths):
        cases += 1
        where = f"{path}:{line_number} {describe(case)}"
        try:
            got = answers(case)
        except RuntimeError as e:
            differences += 1
            print(f"DIFF {where}: tessera failed: {e}")
            continue
        for key, value in expected(case).items():
            if got[key] != value:
                differences += 1
                print(f"DIFF {where}: {key}: jax {value!r} tessera {got[key]!r}")
    print(f"{name} differential: {cases} cases, {differences} differences")
    if cases == 0:
        print("no cases were compared")
        return 1
    return 1 if differences else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    t = Tessera(args.lib)
    return run_cases(
        "jax", args.cases, lambda case: tessera_answers(t, case),
        lambda case: (f"mesh {case['mesh_shape']} ids {case['device_ids']} spec {case['spec']} "
                      f"shape {case['shape']}"),
        lambda case: {key: case[key] for key in ("index_map", "shard_shape", "replica_ids", "hlo_v2")})


if __name__ == "__main__":
    sys.exit(main())
