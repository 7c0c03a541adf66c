#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's Shardy text, through the public C ABI (ctypes), with jax's.

Reads the cases shardy_cases.py wrote (jax's texts included) and, for each,
builds the same mesh and layout with libtessera, then compares:
  - tessera_layout_to_shardy_text with jax's sharding on the mesh symbol;
  - tessera_mesh_to_shardy_text with jax's mesh symbol;
  - jax's inlined sharding (open dims and all) and mesh symbol parsed by
    tessera_layout_from_shardy_text over the mesh's devices sorted by id,
    printed back, with jax's sharding on the mesh symbol.
Prints every difference and the totals; exits 1 on any.

Usage: compare_shardy_with_jax.py --lib path/to/libtessera.so.0 cases.jsonl [...]
"""
import argparse
import ctypes as C
import sys

from compare_with_jax import Tessera, i64, run_cases, strs

SIGNATURES = {
    "tessera_layout_to_shardy_text": (C.c_void_p, [C.c_void_p, C.c_char_p, C.POINTER(C.c_void_p)]),
    "tessera_mesh_to_shardy_text": (C.c_void_p, [C.c_void_p, C.c_char_p, C.POINTER(C.c_void_p)]),
    "tessera_layout_from_shardy_text": (C.c_void_p, [C.c_char_p, C.c_char_p, C.POINTER(C.c_char_p),
                                                     C.c_size_t, C.POINTER(C.c_void_p)]),
}


def text(t, buffer):
    try:
        return t.lib.tessera_buffer_data(buffer).decode()
    finally:
        t.lib.tessera_buffer_destroy(buffer)


def tessera_answers(t, case):
    lib = t.lib
    name = case["mesh_name"].encode()
    devices = [f"cpu:{i}" for i in case["device_ids"]]
    options = lib.tessera_mesh_options_create()
    try:
        t.call("tessera_mesh_options_set_devices", options, strs(devices), len(devices))
        mesh = t.call("tessera_mesh_create", i64(case["mesh_shape"]), strs(case["axis_names"]),
                      len(case["mesh_shape"]), options)
    finally:
        lib.tessera_mesh_options_destroy(options)
    layout = parsed = None
    try:
        rank = len(case["spec"])
        flat = [a for g in case["spec"] for a in g]
        sizes = (C.c_size_t * max(1, rank))(*[len(g) for g in case["spec"]])
        layout = t.call("tessera_layout_create_grouped", strs(flat), len(flat), sizes, rank, mesh)
        sdy = text(t, t.call("tessera_layout_to_shardy_text", layout, name))
        sdy_mesh = text(t, t.call("tessera_mesh_to_shardy_text", mesh, name))
        assignment = [f"cpu:{i}" for i in sorted(case["device_ids"])]
        parsed = t.call("tessera_layout_from_shardy_text", case["sdy_inline"].encode(),
                        case["sdy_mesh"].encode(), strs(assignment), len(assignment))
        reprinted = text(t, t.call("tessera_layout_to_shardy_text", parsed, name))
        return {"sdy": sdy, "sdy_mesh": sdy_mesh, "sdy_inline": reprinted}
    finally:
        lib.tessera_layout_destroy(parsed)
        lib.tessera_layout_destroy(layout)
        lib.tessera_mesh_destroy(mesh)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    t = Tessera(args.lib)
    for fn_name, (res, argtypes) in SIGNATURES.items():
        fn = getattr(t.lib, fn_name)
        fn.restype, fn.argtypes = res, argtypes
    return run_cases(
        "shardy", args.cases, lambda case: tessera_answers(t, case),
        lambda case: (f"mesh {case['mesh_shape']} {case['axis_names']} ids {case['device_ids']} "
                      f"spec {case['spec']} open {case['open_dims']}"),
        # The parsed inline text prints as the closed text on the symbol.
        lambda case: {"sdy": case["sdy"], "sdy_mesh": case["sdy_mesh"], "sdy_inline": case["sdy"]})


if __name__ == "__main__":
    sys.exit(main())
