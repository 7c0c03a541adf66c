#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's DTensor meshes and layouts, through the C ABI (ctypes),
with TensorFlow's DTensor.

Reads the cases dtensor_cases.py wrote (TensorFlow's answers included) and
answers each with libtessera: a mesh from Python's Mesh constructor
(tessera_dtensor_mesh_create_from_ids) and its text, host mesh, coordinates
and dimensions; layouts built from specs and read from text, printed byte for
byte, with their queries (shard counts, replication, offset_to_shard,
global index, local and global shapes) and transforms (to_parted, delete);
the batch_sharded / inner_sharded / replicated constructors; single-device
layouts; and refused specs and texts. A refusal must be one on both sides,
and TensorFlow's message (its first line) must begin Tessera's, which may add
" (at byte N: 'token')" (tessera/dtensor.h). Prints every difference and the
totals per kind; exits 1 on any.

Usage: compare_with_dtensor.py --lib path/to/libtessera.so.0 cases.jsonl [...]
"""
import argparse
import collections
import ctypes as C
import json
import re
import sys

from tessera_ctypes import Library, TesseraError

VP = C.c_void_p
ERR = C.POINTER(C.c_void_p)
SZ = C.c_size_t
I64 = C.c_int64
I64P = C.POINTER(C.c_int64)
STRS = C.POINTER(C.c_char_p)
STATIC = 1


class Tessera(Library):
    def __init__(self, path):
        sig = {
            "tessera_buffer_data": (C.c_char_p, [VP]),
            "tessera_buffer_destroy": (None, [VP]),
            "tessera_dtensor_mesh_options_create": (VP, []),
            "tessera_dtensor_mesh_options_destroy": (None, [VP]),
            "tessera_dtensor_mesh_options_set_name": (C.c_bool, [VP, C.c_char_p, ERR]),
            "tessera_dtensor_mesh_options_set_use_xla_spmd": (C.c_bool, [VP, C.c_bool, ERR]),
            "tessera_dtensor_mesh_device_location": (SZ, [VP, SZ, I64P, SZ, ERR]),
            "tessera_dtensor_mesh_create_from_ids": (VP, [STRS, I64P, SZ, I64P, SZ, I64P, SZ, STRS, SZ, VP, ERR]),
            "tessera_dtensor_mesh_parse": (VP, [C.c_char_p, ERR]),
            "tessera_dtensor_mesh_to_text": (VP, [VP, ERR]),
            "tessera_dtensor_mesh_destroy": (None, [VP]),
            "tessera_dtensor_mesh_to_host_mesh": (VP, [VP, ERR]),
            "tessera_dtensor_mesh_coordinates": (SZ, [VP, I64, I64P, SZ, ERR]),
            "tessera_dtensor_mesh_dim_extent_lookup": (C.c_bool, [VP, C.c_char_p, I64P, ERR]),
            "tessera_dtensor_mesh_has_dim": (C.c_bool, [VP, C.c_char_p, ERR]),
            "tessera_dtensor_layout_parse": (VP, [C.c_char_p, ERR]),
            "tessera_dtensor_layout_create": (VP, [C.c_int, STRS, SZ, VP, ERR]),
            "tessera_dtensor_layout_from_device": (VP, [C.c_char_p, ERR]),
            "tessera_dtensor_layout_to_text": (VP, [VP, ERR]),
            "tessera_dtensor_layout_destroy": (None, [VP]),
            "tessera_dtensor_layout_mesh": (VP, [VP, ERR]),
            "tessera_dtensor_layout_num_dims": (SZ, [VP, ERR]),
            "tessera_dtensor_layout_equal": (C.c_bool, [VP, VP, ERR]),
            "tessera_dtensor_layout_to_parted": (VP, [VP, ERR]),
            "tessera_dtensor_layout_remove_dims": (VP, [VP, C.POINTER(SZ), SZ, ERR]),
            "tessera_dtensor_layout_num_shards_per_dim": (SZ, [VP, I64P, SZ, ERR]),
            "tessera_dtensor_layout_is_fully_replicated": (C.c_bool, [VP, ERR]),
            "tessera_dtensor_layout_is_batch_parallel": (C.c_bool, [VP, ERR]),
            "tessera_dtensor_layout_offset_to_shard": (SZ, [VP, SZ, I64P, SZ, ERR]),
            "tessera_dtensor_layout_offset_tuple_to_global_index": (C.c_bool, [VP, I64P, SZ, I64P, ERR]),
            "tessera_dtensor_layout_local_shape_from_global": (SZ, [VP, I64P, SZ, I64P, SZ, ERR]),
            "tessera_dtensor_layout_global_shape_from_local": (SZ, [VP, I64P, SZ, I64P, SZ, I64P, SZ, ERR]),
        }
        super().__init__(path, sig)
        self.owned = []

    def own(self, handle, destroy):
        """Frees `handle` with `destroy` at the end of the case."""
        self.owned.append((handle, destroy))
        return handle

    def release(self):
        for handle, destroy in reversed(self.owned):
            getattr(self.lib, destroy)(handle)
        self.owned = []

    def text(self, name, handle):
        buf = self.call(name, handle)
        out = self.lib.tessera_buffer_data(buf).decode()
        self.lib.tessera_buffer_destroy(buf)
        return out

    def array(self, name, *args, capacity=16):
        out = (I64 * capacity)()
        n = self.call(name, *args, out, capacity)
        return [out[i] for i in range(n)]

    def mesh(self, m):
        options = self.own(self.lib.tessera_dtensor_mesh_options_create(), "tessera_dtensor_mesh_options_destroy")
        self.call("tessera_dtensor_mesh_options_set_name", options, m["name"].encode())
        self.call("tessera_dtensor_mesh_options_set_use_xla_spmd", options, m["use_xla_spmd"])
        handle = self.call("tessera_dtensor_mesh_create_from_ids", strings(m["names"]), int64s(m["sizes"]),
                           len(m["names"]), int64s(m["global_ids"]), len(m["global_ids"]),
                           int64s(m["local_ids"]), len(m["local_ids"]), strings(m["local_devices"]),
                           len(m["local_devices"]), options)
        return self.own(handle, "tessera_dtensor_mesh_destroy")

    def parse(self, text):
        return self.own(self.call("tessera_dtensor_layout_parse", text.encode()), "tessera_dtensor_layout_destroy")

    def create(self, specs, mesh):
        handle = self.call("tessera_dtensor_layout_create", STATIC, strings(specs), len(specs), mesh)
        return self.own(handle, "tessera_dtensor_layout_destroy")

    def layout_text(self, handle):
        return self.text("tessera_dtensor_layout_to_text", handle)

    def layout_mesh_text(self, handle):
        mesh = self.own(self.call("tessera_dtensor_layout_mesh", handle), "tessera_dtensor_mesh_destroy")
        return self.text("tessera_dtensor_mesh_to_text", mesh)

    def derived_text(self, name, *args):
        handle = self.own(self.call(name, *args), "tessera_dtensor_layout_destroy")
        return self.layout_text(handle)


def int64s(values):
    return (I64 * max(len(values), 1))(*values)


def strings(values):
    return (C.c_char_p * max(len(values), 1))(*[v.encode() for v in values])


def answer(fn):
    """Tessera's answer in the shape dtensor_cases.answer records TF's."""
    try:
        return {"ok": fn()}
    except TesseraError as e:
        return {"error": "ValueError", "message": e.message}


# std::stoi's what(): DTensor reads mesh sizes and ids with unchecked stoi and
# has no message of its own for a non-number; Tessera validates the text
# strictly with a message naming the token (core/formats/dtensor_text.h), so
# only the refusal itself is compared there.
UNCHECKED_PARSE = "stoi"


def sorted_sets(message):
    """`message` with each Python set repr's items sorted: a set prints in
    hash order, which Python does not specify (and varies per process);
    Tessera prints them sorted (core/py_repr.h, PyStrSetRepr)."""
    return re.sub(r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


def same(expect, got):
    """Equal answers; for refusals, TF's message begins Tessera's."""
    if "error" in expect and "error" in got:
        return (expect["message"] == UNCHECKED_PARSE
                or sorted_sets(got["message"]).startswith(sorted_sets(expect["message"])))
    return expect == got


def mesh_case(t, case):
    mesh = t.mesh(case["mesh"])
    dims = case["mesh"]["names"]

    def host():
        h = t.own(t.call("tessera_dtensor_mesh_to_host_mesh", mesh), "tessera_dtensor_mesh_destroy")
        return t.text("tessera_dtensor_mesh_to_text", h)

    def extent(d):
        out = I64()
        t.call("tessera_dtensor_mesh_dim_extent_lookup", mesh, d.encode(), C.byref(out))
        return out.value

    reparsed = t.own(t.call("tessera_dtensor_mesh_parse", case["expect"]["text"].encode()),
                     "tessera_dtensor_mesh_destroy")
    with_globals = t.own(t.call("tessera_dtensor_mesh_parse", case["expect"]["with_global_devices"].encode()),
                         "tessera_dtensor_mesh_destroy")
    host_with_globals = t.own(t.call("tessera_dtensor_mesh_to_host_mesh", with_globals), "tessera_dtensor_mesh_destroy")
    return {
        "text": t.text("tessera_dtensor_mesh_to_text", mesh),
        "with_global_devices": t.text("tessera_dtensor_mesh_to_text", with_globals),
        "host_mesh_with_global_devices": t.text("tessera_dtensor_mesh_to_text", host_with_globals),
        "device_locations": [t.array("tessera_dtensor_mesh_device_location", mesh, i)
                             for i in range(len(case["mesh"]["global_ids"]))],
        "host_mesh": answer(host),
        "coords": [t.array("tessera_dtensor_mesh_coordinates", mesh, i) for i in case["indices"]],
        "dim_sizes": {d: extent(d) for d in dims},
        "contains": {d: t.call("tessera_dtensor_mesh_has_dim", mesh, d.encode()) for d in case["expect"]["contains"]},
    }, {"reparsed text": t.text("tessera_dtensor_mesh_to_text", reparsed)}, {"reparsed text": case["expect"]["text"]}


def layout_case(t, case):
    e = case["expect"]
    mesh = t.mesh(case["mesh"])
    layout = t.parse(case["text"])
    other = t.parse(case["other"])
    rank = t.call("tessera_dtensor_layout_num_dims", layout)
    mesh_size = len(case["mesh"]["global_ids"])
    offsets = e["offsets"]
    index = I64()
    t.call("tessera_dtensor_layout_offset_tuple_to_global_index", layout, int64s(offsets), len(offsets),
           C.byref(index))
    deletes = e["deletes"]
    return {
        "constructed": t.layout_text(t.create(case["specs"], mesh)),
        "round_trip": t.layout_text(layout),
        "mesh_text": t.layout_mesh_text(layout),
        "equal": t.call("tessera_dtensor_layout_equal", layout, other),
        "num_shards": t.array("tessera_dtensor_layout_num_shards_per_dim", layout),
        "is_fully_replicated": t.call("tessera_dtensor_layout_is_fully_replicated", layout),
        "is_batch_parallel": t.call("tessera_dtensor_layout_is_batch_parallel", layout),
        "offset_to_shard": [t.array("tessera_dtensor_layout_offset_to_shard", layout, i) for i in range(mesh_size)],
        "offsets": offsets,
        "global_index": index.value,
        "global_shape": e["global_shape"],
        "local_from_global": answer(lambda: t.array("tessera_dtensor_layout_local_shape_from_global", layout,
                                                    int64s(e["global_shape"]), rank)),
        "local_shape": e["local_shape"],
        "global_from_local": answer(lambda: t.array("tessera_dtensor_layout_global_shape_from_local", layout,
                                                    int64s(e["local_shape"]), rank, None, 0)),
        "to_parted": answer(lambda: t.derived_text("tessera_dtensor_layout_to_parted", layout)),
        "deletes": deletes,
        "delete": answer(lambda: t.derived_text("tessera_dtensor_layout_remove_dims", layout,
                                                (SZ * max(len(deletes), 1))(*deletes), len(deletes))),
    }, None, None


def constructor_case(t, case):
    mesh = t.mesh(case["mesh"])
    rank, dim = case["rank"], case["dim"]
    specs = {
        "batch_sharded": [dim] + ["unsharded"] * (rank - 1),
        "inner_sharded": ["unsharded"] * (rank - 1) + [dim],
        "replicated": ["unsharded"] * rank,
    }[case["which"]]
    return answer(lambda: t.layout_text(t.create(specs, mesh))), None, None


def single_device_case(t, case):
    layout = t.own(t.call("tessera_dtensor_layout_from_device", case["device"].encode()),
                   "tessera_dtensor_layout_destroy")
    text = t.layout_text(layout)
    return {
        "text": text,
        "round_trip": t.layout_text(t.parse(text)),
        "mesh_text": t.layout_mesh_text(layout),
        "is_fully_replicated": t.call("tessera_dtensor_layout_is_fully_replicated", layout),
    }, None, None


def spec_error_case(t, case):
    mesh = t.mesh(case["mesh"])
    return answer(lambda: t.layout_text(t.create(case["specs"], mesh))), None, None


def mesh_error_case(t, case):
    return answer(lambda: t.text("tessera_dtensor_mesh_to_text", t.mesh(case["mesh"]))), None, None


def text_error_case(t, case):
    return answer(lambda: t.layout_text(t.parse(case["text"]))), None, None


KINDS = {
    "mesh": mesh_case,
    "layout": layout_case,
    "constructor": constructor_case,
    "single_device": single_device_case,
    "spec_error": spec_error_case,
    "text_error": text_error_case,
    "mesh_error": mesh_error_case,
}


def differences(expect, got):
    """The fields where `got` is not `expect` (whole answers for refusals)."""
    if isinstance(expect, dict) and not ({"ok", "error"} & expect.keys()):
        return [k for k in expect if not same_field(expect[k], got.get(k))]
    return [] if same_field(expect, got) else ["answer"]


def same_field(expect, got):
    if isinstance(expect, dict) and ({"ok", "error"} & expect.keys()):
        return isinstance(got, dict) and same(expect, got)
    return expect == got


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    t = Tessera(args.lib)
    total, failed = collections.Counter(), collections.Counter()
    for path in args.cases:
        with open(path) as f:
            for line in f:
                case = json.loads(line)
                kind = case["kind"]
                total[kind] += 1
                try:
                    got, extra_got, extra_expect = KINDS[kind](t, case)
                    bad = differences(case["expect"], got)
                    if extra_got != extra_expect:
                        bad.append(f"{extra_expect} -> {extra_got}")
                    detail = {k: (case["expect"], got) if k == "answer" else (case["expect"].get(k), got.get(k))
                              for k in bad if not k.startswith("{")}
                except TesseraError as e:
                    bad, detail = ["refused"], str(e)
                finally:
                    t.release()
                if bad:
                    failed[kind] += 1
                    print(f"DIFF {kind}: {bad}\n  case: {json.dumps(case)}\n  detail: {detail}")
    for kind in sorted(total):
        print(f"{kind}: {total[kind] - failed[kind]}/{total[kind]} match")
    print(f"total: {sum(total.values()) - sum(failed.values())}/{sum(total.values())} match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
