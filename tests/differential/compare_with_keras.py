#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Compares Tessera's answers, through the public C ABI (ctypes), with keras's.

Reads the cases keras_cases.py wrote (keras's answers included) and answers
each with libtessera: the interleave split (tessera_interleave_batches and
_batch_items against DistributedBatchSampler, ArrayDataAdapter and
PyDatasetAdapter), initialize's argument resolution
(tessera_keras_initialize_resolve_from_env against what Keras hands its JAX
backend and what that hands jax.distributed.initialize), and a
distribution's queries; and (keras30_cases.py, keras 3.3.3 on TensorFlow)
the rows each process reads per step in the Keras 3.0 dataset mode. Errors
must match Keras's message (Python's int()
message is a prefix of Tessera's, which adds the variable's name). Prints
every difference and the totals per kind; exits 1 on any.

Usage: compare_with_keras.py --lib path/to/libtessera.so.0 cases.jsonl [...]
"""
import argparse
import collections
import ctypes as C
import json
import os
import sys

from tessera_ctypes import Library, TesseraError

VP = C.c_void_p
ERR = C.POINTER(C.c_void_p)
SZ = C.c_size_t
SZP = C.POINTER(C.c_size_t)


class Tessera(Library):
    def __init__(self, path):
        sig = {
            "tessera_error_message": (C.c_char_p, [VP]),
            "tessera_error_destroy": (None, [VP]),
            "tessera_interleave_batches": (SZ, [SZ, SZ, SZ, C.c_bool, SZP, SZ, ERR]),
            "tessera_interleave_batch_items": (SZ, [SZ, SZ, SZ, SZ, C.c_bool, SZP, SZ, ERR]),
            "tessera_keras_initialize_options_create": (VP, []),
            "tessera_keras_initialize_options_destroy": (None, [VP]),
            "tessera_keras_initialize_options_set_job_addresses": (C.c_bool, [VP, C.c_char_p, ERR]),
            "tessera_keras_initialize_options_set_num_processes": (C.c_bool, [VP, C.c_int64, ERR]),
            "tessera_keras_initialize_options_set_process_index": (C.c_bool, [VP, C.c_int64, ERR]),
            "tessera_keras_initialize_resolve_from_env": (VP, [VP, C.POINTER(C.c_char_p), SZ, ERR]),
            "tessera_keras_initialize_destroy": (None, [VP]),
            "tessera_keras_initialize_job_addresses": (C.c_char_p, [VP, ERR]),
            "tessera_keras_initialize_coordinator_address": (C.c_char_p, [VP, ERR]),
            "tessera_keras_initialize_has_num_processes": (C.c_bool, [VP, ERR]),
            "tessera_keras_initialize_num_processes": (C.c_int64, [VP, ERR]),
            "tessera_keras_initialize_has_process_index": (C.c_bool, [VP, ERR]),
            "tessera_keras_initialize_process_index": (C.c_int64, [VP, ERR]),
            "tessera_mesh_options_create": (VP, []),
            "tessera_mesh_options_destroy": (None, [VP]),
            "tessera_mesh_options_set_devices": (C.c_bool, [VP, C.POINTER(C.c_char_p), SZ, ERR]),
            "tessera_mesh_create": (VP, [C.POINTER(C.c_int64), C.POINTER(C.c_char_p), SZ, VP, ERR]),
            "tessera_mesh_destroy": (None, [VP]),
            "tessera_layout_map_create": (VP, [VP, C.c_int, ERR]),
            "tessera_layout_map_destroy": (None, [VP]),
            "tessera_distribution_options_create": (VP, []),
            "tessera_distribution_options_destroy": (None, [VP]),
            "tessera_distribution_options_set_process": (C.c_bool, [VP, SZ, SZ, ERR]),
            "tessera_distribution_options_set_auto_shard_dataset": (C.c_bool, [VP, C.c_bool, ERR]),
            "tessera_distribution_create_data_parallel": (VP, [VP, VP, ERR]),
            "tessera_distribution_create_model_parallel": (VP, [VP, C.c_char_p, VP, ERR]),
            "tessera_distribution_destroy": (None, [VP]),
            "tessera_distribution_num_model_replicas": (SZ, [VP, ERR]),
            "tessera_distribution_num_data_shards": (SZ, [VP, ERR]),
            "tessera_distribution_data_shard_id": (SZ, [VP, ERR]),
            "tessera_distribution_batch_dim_name": (C.c_char_p, [VP, ERR]),
            "tessera_distribution_auto_shard_dataset": (C.c_bool, [VP, ERR]),
            "tessera_distribution_interleave_num_shards": (SZ, [VP, ERR]),
            "tessera_distribution_interleave_shard_index": (SZ, [VP, ERR]),
            "tessera_distribution_is_batch_parallel": (C.c_bool, [VP, ERR]),
            "tessera_distribution_options_set_dataset_mode": (C.c_bool, [VP, C.c_int, ERR]),
            "tessera_distribution_plan_dataset_for_process": (VP, [VP, SZ, SZ, ERR]),
            "tessera_dataset_plan_kind": (C.c_int, [VP, ERR]),
            "tessera_dataset_plan_per_process_batch_num_examples": (SZ, [VP, ERR]),
            "tessera_dataset_plan_num_shards": (SZ, [VP, ERR]),
            "tessera_dataset_plan_shard_index": (SZ, [VP, ERR]),
            "tessera_dataset_plan_destroy": (None, [VP]),
        }
        super().__init__(path, sig)

    def array(self, name, *args):
        n = self.call(name, *args, None, 0)
        out = (C.c_size_t * max(1, n))()
        self.call(name, *args, out, n)
        return list(out[:n])


def strs(values):
    return (C.c_char_p * max(1, len(values)))(*[v.encode() for v in values])


def interleave(t, c):
    nb = -(-c["num_items"] // c["batch"])
    s, i = c["num_shards"], c["shard_index"]
    try:
        got = {"sampler_batches": t.array("tessera_interleave_batches", nb, s, i, c["drop_last"])}
    except TesseraError as e:
        return {"error": e.message}
    got["sampler_len"] = len(got["sampler_batches"])
    got["array_items"] = t.array("tessera_interleave_batch_items", c["num_items"], c["batch"], s, i, False)
    got["pydataset_batches"] = t.array("tessera_interleave_batches", nb, s, i, False)
    got["array_num_batches"] = len(got["pydataset_batches"])
    return got


def initialize(t, c):
    lib = t.lib
    options = lib.tessera_keras_initialize_options_create()
    explicit = c["explicit"]
    if "job_addresses" in explicit:
        t.call("tessera_keras_initialize_options_set_job_addresses", options, explicit["job_addresses"].encode())
    if "num_processes" in explicit:
        t.call("tessera_keras_initialize_options_set_num_processes", options, explicit["num_processes"])
    if "process_id" in explicit:
        t.call("tessera_keras_initialize_options_set_process_index", options, explicit["process_id"])
    env = [f"{k}={v}" for k, v in c["env"].items()]
    try:
        r = t.call("tessera_keras_initialize_resolve_from_env", options, strs(env), len(env))
    except TesseraError as e:
        return {"error": e.message}
    finally:
        lib.tessera_keras_initialize_options_destroy(options)
    text = t.call("tessera_keras_initialize_job_addresses", r)
    coordinator = t.call("tessera_keras_initialize_coordinator_address", r)
    got = {
        "passed": {
            "job_addresses": None if text is None else text.decode(),
            "num_processes": t.call("tessera_keras_initialize_num_processes", r)
            if t.call("tessera_keras_initialize_has_num_processes", r) else None,
            "process_id": t.call("tessera_keras_initialize_process_index", r)
            if t.call("tessera_keras_initialize_has_process_index", r) else None,
        },
        "coordinator_address": None if coordinator is None else coordinator.decode(),
    }
    lib.tessera_keras_initialize_destroy(r)
    return got


def distribution(t, c):
    lib = t.lib
    shape = c["shape"]
    size = 1
    for extent in shape:
        size *= extent
    mesh_options = lib.tessera_mesh_options_create()
    devices = [f"cpu:{k}" for k in range(size)]
    t.call("tessera_mesh_options_set_devices", mesh_options, strs(devices), size)
    mesh = t.call("tessera_mesh_create", (C.c_int64 * len(shape))(*shape), strs(c["names"]), len(shape),
                  mesh_options)
    lib.tessera_mesh_options_destroy(mesh_options)
    options = lib.tessera_distribution_options_create()
    t.call("tessera_distribution_options_set_process", options, c["num_processes"], c["process_id"])
    t.call("tessera_distribution_options_set_auto_shard_dataset", options, c["auto_shard"])
    try:
        if c["model_parallel"]:
            layout_map = t.call("tessera_layout_map_create", mesh, 0)
            try:
                batch = None if c["batch_dim_name"] is None else c["batch_dim_name"].encode()
                d = t.call("tessera_distribution_create_model_parallel", layout_map, batch, options)
            finally:
                lib.tessera_layout_map_destroy(layout_map)
        else:
            d = t.call("tessera_distribution_create_data_parallel", mesh, options)
    except TesseraError as e:
        return {"error": e.message}
    finally:
        lib.tessera_distribution_options_destroy(options)
        lib.tessera_mesh_destroy(mesh)
    got = {
        "num_model_replicas": t.call("tessera_distribution_num_model_replicas", d),
        "num_data_shards": t.call("tessera_distribution_num_data_shards", d),
        "data_shard_id": t.call("tessera_distribution_data_shard_id", d),
        "resolved_batch_dim_name": t.call("tessera_distribution_batch_dim_name", d).decode(),
        "auto_shard_dataset": t.call("tessera_distribution_auto_shard_dataset", d),
        # Derived: what the adapters read, and whether the batch is split.
        "interleave": [t.call("tessera_distribution_interleave_num_shards", d),
                       t.call("tessera_distribution_interleave_shard_index", d)],
        "is_batch_parallel": t.call("tessera_distribution_is_batch_parallel", d),
    }
    lib.tessera_distribution_destroy(d)
    return got


def new_mesh(t, shape, names):
    size = 1
    for extent in shape:
        size *= extent
    options = t.lib.tessera_mesh_options_create()
    t.call("tessera_mesh_options_set_devices", options, strs([f"cpu:{k}" for k in range(size)]), size)
    try:
        return t.call("tessera_mesh_create", (C.c_int64 * len(shape))(*shape), strs(names), len(shape), options)
    finally:
        t.lib.tessera_mesh_options_destroy(options)


KERAS_3_0 = 1  # TESSERA_DATASET_MODE_KERAS_3_0
SHARD = 2  # TESSERA_DATASET_PLAN_SHARD


def keras30(t, c):
    """Per process, the rows of each step: a SHARD plan reads per_process rows
    from shard_index * ceil(G / num_shards); the others read the whole batch."""
    lib = t.lib
    g, p = c["global_batch_size"], c["num_processes"]
    options = lib.tessera_distribution_options_create()
    t.call("tessera_distribution_options_set_process", options, p, 0)
    t.call("tessera_distribution_options_set_dataset_mode", options, KERAS_3_0)
    mesh = new_mesh(t, c["mesh"], ["batch", "model"]) if c["model_parallel"] else new_mesh(t, [8], ["batch"])
    try:
        if c["model_parallel"]:
            layout_map = t.call("tessera_layout_map_create", mesh, 0)
            d = t.call("tessera_distribution_create_model_parallel", layout_map, None, options)
            lib.tessera_layout_map_destroy(layout_map)
        else:
            d = t.call("tessera_distribution_create_data_parallel", mesh, options)
    finally:
        lib.tessera_distribution_options_destroy(options)
        lib.tessera_mesh_destroy(mesh)
    rows = []
    try:
        for pid in range(p):
            plan = t.call("tessera_distribution_plan_dataset_for_process", d, g, pid)
            start, count = 0, g
            if t.call("tessera_dataset_plan_kind", plan) == SHARD:
                shards = t.call("tessera_dataset_plan_num_shards", plan)
                start = t.call("tessera_dataset_plan_shard_index", plan) * -(-g // shards)
                count = t.call("tessera_dataset_plan_per_process_batch_num_examples", plan)
            lib.tessera_dataset_plan_destroy(plan)
            rows.append([list(range(step * g + start, step * g + start + count)) for step in range(2)])
    except TesseraError as e:
        return {"error": e.message}
    finally:
        lib.tessera_distribution_destroy(d)
    return {"rows": rows}


def expected_distribution(c):
    want = {k: c[k] for k in ("num_model_replicas", "num_data_shards", "data_shard_id", "resolved_batch_dim_name",
                              "auto_shard_dataset")}
    want["interleave"] = [c["num_data_shards"], c["data_shard_id"]] if c["auto_shard_dataset"] else [1, 0]
    want["is_batch_parallel"] = c["num_model_replicas"] > 1
    return want


def same_error(kind, keras_message, tessera_message):
    if kind == "initialize" and keras_message.startswith("invalid literal for int()"):
        return tessera_message.startswith(keras_message + " (environment variable ")
    return keras_message == tessera_message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    os.environ["TESSERA_DEVICES"] = ""
    os.environ["TESSERA_CPU_DEVICE_COUNT"] = "64"
    t = Tessera(args.lib)
    answer = {"interleave": interleave, "initialize": initialize, "distribution": distribution, "keras30": keras30}
    totals = collections.Counter()
    differences = collections.Counter()
    for path in args.cases:
        with open(path) as f:
            for line in f:
                c = json.loads(line)
                kind = c["kind"]
                totals[kind] += 1
                got = answer[kind](t, c)
                if "error" in c or "error" in got:
                    ok = "error" in c and "error" in got and same_error(kind, c["error"], got["error"])
                    want = {"error": c.get("error")}
                else:
                    if kind == "distribution":
                        want = expected_distribution(c)
                    else:
                        want = {k: c[k] for k in got}
                    ok = got == want
                if not ok:
                    differences[kind] += 1
                    print(f"DIFFERENCE {kind}: {json.dumps(c)}\n  keras:   {want}\n  tessera: {got}")
    for kind in sorted(totals):
        print(f"{kind}: {totals[kind]} cases, {differences[kind]} differences")
    print(f"total: {sum(totals.values())} cases, {sum(differences.values())} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
