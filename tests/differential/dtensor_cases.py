# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Random DTensor meshes and layouts answered by TensorFlow's own DTensor
(tensorflow-cpu, CPU only: no device is touched, the meshes and layouts are
values), one JSON object per line; compare_with_dtensor.py answers each
through libtessera's C ABI.

Usage: TF_CPP_MIN_LOG_LEVEL=3 python dtensor_cases.py --count 1500 --seed 11 > cases.jsonl

Each line is {"kind": ..., <inputs>, "expect": <TF's answer>}; an error is
recorded as {"error": <exception type>, "message": <its first line>} (DTensor's
C++ appends the source location on a second line).
"""
import argparse
import json
import random

import numpy as np
from tensorflow.dtensor.python import layout as L

TYPES = ["CPU", "TPU", "GPU"]
NAMES = ["x", "y", "batch", "model", "b"]


def failure(e):
    return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


def answer(fn):
    try:
        return {"ok": fn()}
    except Exception as e:  # noqa: BLE001 - the exception is the answer
        return failure(e)


def random_mesh_args(rng):
    rank = rng.randint(1, 3)
    names = rng.sample(NAMES, rank)
    sizes = [rng.randint(1, 4) for _ in range(rank)]
    n = int(np.prod(sizes))
    tasks = rng.choice([t for t in (1, 2, 4) if n % t == 0])
    per_task = n // tasks
    task = rng.randrange(tasks)
    kind = rng.choice(TYPES)
    job = "localhost" if tasks == 1 else rng.choice(["worker", "localhost"])
    local_ids = list(range(task * per_task, (task + 1) * per_task))
    devices = [f"/job:{job}/replica:0/task:{task}/device:{kind}:{i}" for i in range(per_task)]
    name = rng.choice(["", "", "mesh", "m1"])
    xla = kind == "TPU" and rng.random() < 0.3  # DTensor refuses it for CPU and GPU meshes
    return {"names": names, "sizes": sizes, "global_ids": list(range(n)), "local_ids": local_ids,
            "local_devices": devices, "name": name, "use_xla_spmd": xla}


def make_mesh(args):
    return L.Mesh(args["names"], np.array(args["global_ids"]).reshape(args["sizes"]),
                  args["local_ids"], args["local_devices"], mesh_name=args["name"],
                  use_xla_spmd=args["use_xla_spmd"])


def random_specs(rng, mesh_args, rank):
    free = list(mesh_args["names"])
    rng.shuffle(free)
    specs = []
    for _ in range(rank):
        if free and rng.random() < 0.6:
            specs.append(free.pop())
        else:
            specs.append(L.UNSHARDED)
    return specs


def global_devices(args):
    """Every task's devices, in id order, as the local ones are named."""
    per_task = len(args["local_ids"])
    local = args["local_devices"][0]
    prefix, task_and_rest = local.split("/task:", 1)
    kind = task_and_rest.split("/device:", 1)[1].rsplit(":", 1)[0]
    return [f"{prefix}/task:{i // per_task}/device:{kind}:{i % per_task}" for i in args["global_ids"]]


def mesh_case(rng):
    args = random_mesh_args(rng)
    mesh = make_mesh(args)
    n = len(args["global_ids"])
    indices = [rng.randrange(-2, 2 * n) for _ in range(3)]
    # A mesh with global devices (the constructor's global_devices argument,
    # which tessera_dtensor_mesh_create_from_ids does not take) is read from
    # its text instead.
    text = mesh.to_string()
    with_globals = L.Mesh(args["names"], np.array(args["global_ids"]).reshape(args["sizes"]), args["local_ids"],
                          args["local_devices"], mesh_name=args["name"], global_devices=global_devices(args),
                          use_xla_spmd=args["use_xla_spmd"])
    return {"kind": "mesh", "mesh": args, "indices": indices, "expect": {
        "text": text,
        "with_global_devices": with_globals.to_string(),
        "host_mesh_with_global_devices": with_globals.host_mesh().to_string(),
        "device_locations": [list(mesh.device_location(i)) for i in range(n)],
        "host_mesh": answer(lambda: mesh.host_mesh().to_string()),
        "coords": [[int(c) for c in mesh.coords(i).numpy()] for i in indices],
        "dim_sizes": {d: mesh.dim_size(d) for d in args["names"]},
        "contains": {d: d in mesh for d in NAMES},
    }}


def layout_queries(rng, layout, mesh_args, rank):
    n = len(mesh_args["global_ids"])
    shards = [layout.num_shards(i) for i in range(rank)]
    offsets = [rng.randrange(s) for s in shards]
    global_shape = [rng.randint(0, 3) * s + rng.choice([0, 0, 0, 1]) for s in shards]
    local_shape = [rng.randint(0, 5) for _ in range(rank)]
    deletes = sorted(rng.sample(range(rank), rng.randint(0, rank))) if rank else []
    return {
        "num_shards": shards,
        "is_fully_replicated": layout.is_fully_replicated(),
        "is_batch_parallel": layout.is_batch_parallel(),
        "offset_to_shard": [list(s) for s in layout.offset_to_shard()] if n else [],
        "offsets": offsets,
        "global_index": layout.offset_tuple_to_global_index(tuple(offsets)),
        "global_shape": global_shape,
        "local_from_global": answer(lambda: list(layout.local_shape_from_global_shape(global_shape))),
        "local_shape": local_shape,
        "global_from_local": answer(lambda: list(layout.global_shape_from_local_shape(local_shape))),
        "to_parted": answer(lambda: layout.to_parted().to_string()),
        "deletes": deletes,
        "delete": answer(lambda: layout.delete(deletes).to_string()),
    }


def layout_case(rng):
    args = random_mesh_args(rng)
    mesh = make_mesh(args)
    rank = rng.randint(0, 4)
    specs = random_specs(rng, args, rank)
    layout = L.Layout(specs, mesh)
    text = layout.to_string()
    if rng.random() < 0.3:
        text = layout.to_parted().to_string()
        layout = L.Layout.from_string(text)
    other_specs = specs if rng.random() < 0.4 else random_specs(rng, args, rank)
    other = L.Layout(other_specs, mesh).to_string()
    return {"kind": "layout", "mesh": args, "specs": specs, "text": text, "other": other, "expect": {
        "constructed": L.Layout(specs, mesh).to_string(),
        "round_trip": L.Layout.from_string(text).to_string(),
        "mesh_text": layout.mesh.to_string(),
        "equal": L.Layout.from_string(text) == L.Layout.from_string(other),
        **layout_queries(rng, layout, args, rank),
    }}


def constructor_case(rng):
    args = random_mesh_args(rng)
    mesh = make_mesh(args)
    rank = rng.randint(1, 4)
    which = rng.choice(["batch_sharded", "inner_sharded", "replicated"])
    dim = rng.choice(args["names"])
    if which == "batch_sharded":
        fn = lambda: L.Layout.batch_sharded(mesh, dim, rank).to_string()  # noqa: E731
    elif which == "inner_sharded":
        fn = lambda: L.Layout.inner_sharded(mesh, dim, rank).to_string()  # noqa: E731
    else:
        fn = lambda: L.Layout.replicated(mesh, rank).to_string()  # noqa: E731
    return {"kind": "constructor", "mesh": args, "which": which, "dim": dim, "rank": rank, "expect": answer(fn)}


def single_device_case(rng):
    kind = rng.choice(TYPES)
    device = f"/job:{rng.choice(['localhost', 'worker'])}/replica:0/task:{rng.randint(0, 3)}/device:{kind}:{rng.randint(0, 7)}"
    layout = L.Layout.from_device(device)
    text = layout.to_string()
    return {"kind": "single_device", "device": device, "expect": {
        "text": text,
        "round_trip": L.Layout.from_string(text).to_string(),
        "mesh_text": layout.mesh.to_string(),
        "is_fully_replicated": layout.is_fully_replicated(),
    }}


def mesh_error_case(rng):
    """Python's Mesh constructor on arguments it refuses (or, now and then, accepts)."""
    args = random_mesh_args(rng)
    n = len(args["global_ids"])
    devices, ids = args["local_devices"], args["local_ids"]
    kind = devices[0].rsplit(":", 2)[1]
    other = rng.choice([t for t in TYPES if t != kind])
    # No repeated dimension name here: TF's Python constructor lets one through
    # and prints a mesh its own parser refuses ("repeated mesh dimension");
    # Tessera's constructor applies the parser's checks too
    # (tessera/experimental/dtensor_mesh.h, create_from_ids). text_error_case
    # covers the parser's refusal.
    fault = rng.choice(["order", "types", "sizes", "xla_cpu", "duplicate", "stray_id"])
    if fault == "stray_id":
        args["local_ids"] = ids[:-1] + [n + 3]
    elif fault == "order" and n > 1:
        args["global_ids"] = args["global_ids"][::-1]
    elif fault == "types" and len(devices) > 1:
        devices[-1] = devices[-1].replace(f"device:{kind}:", f"device:{other}:")
    elif fault == "sizes":
        args["local_ids"] = ids[:-1]
    elif fault == "xla_cpu":
        args["local_devices"] = [d.replace(f"device:{kind}:", "device:CPU:") for d in devices]
        args["use_xla_spmd"] = True
    elif len(devices) > 1 and kind != "CPU":
        # Not for CPU: Tessera refuses a repeated host CPU, which DTensor
        # accepts (tessera/experimental/dtensor_mesh.h, create_from_ids).
        devices[-1] = devices[0]
    return {"kind": "mesh_error", "mesh": args, "expect": answer(lambda: make_mesh(args).to_string())}


def spec_error_case(rng):
    """Layout(specs, mesh) with a repeated or unknown mesh dimension."""
    args = random_mesh_args(rng)
    mesh = make_mesh(args)
    specs = random_specs(rng, args, rng.randint(1, 3))
    if rng.random() < 0.5:
        specs.insert(rng.randrange(len(specs) + 1), rng.choice(args["names"]))
    else:
        specs.insert(rng.randrange(len(specs) + 1), rng.choice(["z", "q", "any", "scalar", "match"]))
    return {"kind": "spec_error", "mesh": args, "specs": specs, "expect": answer(lambda: L.Layout(specs, mesh).to_string())}


def text_error_case(rng):
    """Layout text that DTensor's parser refuses (or, now and then, accepts)."""
    args = random_mesh_args(rng)
    mesh_text = make_mesh(args).to_string()
    name = rng.choice(args["names"])
    first = f"{args['names'][0]}="
    repeated = mesh_text.replace(first, f"{name}=", 1) if name != args["names"][0] else mesh_text.replace(
        first, f"{name}=1,{first}", 1)
    text = rng.choice([
        f"sharding_specs:unsharded, mesh:{repeated}",
        f"sharding_specs:{name}, mesh:{mesh_text.replace(first, 'any=', 1)}",
        f"sharding_specs:{name},{name}, mesh:{mesh_text}",
        f"sharding_specs:zz, mesh:{mesh_text}",
        f"sharded:{name}, mesh:{mesh_text}",
        f"sharding_specs:{name}, {mesh_text}",
        "foo",
        "",
        "empty_layout",
        f"maximal:true, mesh:{mesh_text}",
        f"sharding_specs:{name}, mesh:{mesh_text.replace('=', '=x', 1)}",
        f"sharding_specs:unsharded, mesh:{mesh_text}",
    ])
    return {"kind": "text_error", "text": text, "expect": answer(lambda: L.Layout.from_string(text).to_string())}


KINDS = [(mesh_case, 2), (layout_case, 6), (constructor_case, 2), (single_device_case, 1),
         (spec_error_case, 1), (text_error_case, 1), (mesh_error_case, 1)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [m for m, w in KINDS for _ in range(w)]
    for _ in range(args.count):
        print(json.dumps(rng.choice(makers)(rng)))


if __name__ == "__main__":
    main()
