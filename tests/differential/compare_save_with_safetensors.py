"""Sharded saves (tessera/experimental/checkpoint_save.h, through ctypes)
read by the `safetensors` package: random meshes of 8 CPU devices, layouts,
shard modes, dtypes and process counts; every process of the job saves its
shards from numpy buffers (`arr[box].tobytes()`), process 0 finishes. Then
each process file must open with safetensors.safe_open, its metadata must
name the format and the process, every stored piece must equal the numpy
slice of its name's box, the pieces must be each distinct shard with
elements exactly once over the job (its first holder's process), and the
index's offsets must point at the same bytes. Prints the counts; exits 1 on
any difference.

  usage: compare_save_with_safetensors.py --lib libtessera.so [--count N] [--seed S]
"""
import argparse
import ctypes as C
import json
import math
import os
import random
import sys
import tempfile

import numpy as np
from safetensors import safe_open

import tessera_lib

_P = C.c_void_p
_ERR = C.POINTER(C.c_void_p)
_I64S = C.POINTER(C.c_int64)

SIGNATURES = {
    "tessera_save_options_create": (_P, []),
    "tessera_save_options_destroy": (None, [_P]),
    "tessera_save_options_set_process": (C.c_bool, [_P, C.c_size_t, C.c_size_t, _ERR]),
    "tessera_save_options_set_shard_mode": (C.c_bool, [_P, C.c_int, _ERR]),
    "tessera_checkpoint_saver_create": (_P, [C.c_char_p, _P, _ERR]),
    "tessera_checkpoint_saver_destroy": (None, [_P]),
    "tessera_checkpoint_saver_add_tensor": (C.c_bool, [_P, C.c_char_p, C.c_char_p, _P, _I64S, C.c_size_t, _ERR]),
    "tessera_checkpoint_saver_set_shard": (C.c_bool, [_P, C.c_size_t, C.c_size_t, C.c_char_p, C.c_size_t, _ERR]),
    "tessera_checkpoint_saver_write": (C.c_bool, [_P, _ERR]),
    "tessera_checkpoint_saver_finish": (C.c_bool, [_P, _ERR]),
    "tessera_sharding_create": (_P, [_P, _I64S, C.c_size_t, C.c_int, _ERR]),
    "tessera_sharding_destroy": (None, [_P]),
    "tessera_sharding_device_ranges": (C.c_size_t, [_P, C.c_size_t, _I64S, C.c_size_t, _ERR]),
}

MESHES = [([8], ["x"]), ([2, 4], ["x", "y"]), ([4, 2], ["x", "y"]), ([2, 2, 2], ["x", "y", "z"])]
DTYPES = [("F32", np.float32), ("F16", np.float16), ("I8", np.int8), ("I64", np.int64), ("U8", np.uint8)]
MODES = {"strict": 0, "chunk-flat": 1}


class Failed(Exception):
    pass


def check(lib, ok, err, what):
    if not ok:
        raise Failed(f"{what}: {tessera_lib.take_error(lib, err) if err.value else 'failed'}")


def random_layout(rng, names, rank):
    """A layout: each mesh axis on at most one dimension, groups allowed."""
    layout = [[] for _ in range(rank)]
    for name in rng.sample(names, len(names)):
        if rank and rng.random() < 0.7:
            layout[rng.randrange(rank)].append(name)
    return layout


def random_tensor(rng, shape_m, names, mode):
    rank = rng.choice([0, 1, 2, 2, 3])
    layout = random_layout(rng, names, rank)
    sizes = dict(zip(names, shape_m))
    shape = [math.prod(sizes[a] for a in g) * rng.randint(1, 3) if mode == "strict" else rng.randint(0, 9)
             for g in layout]
    return {"layout": layout, "shape": shape, "dtype": rng.choice(DTYPES)}


def device_boxes(lib, layout_handle, shape, mode, num_devices):
    err = C.c_void_p()
    sharding = lib.tessera_sharding_create(layout_handle, tessera_lib.int64s(shape), len(shape), MODES[mode],
                                           C.byref(err))
    check(lib, sharding, err, "tessera_sharding_create")
    boxes = []
    out = (C.c_int64 * max(2 * len(shape), 1))()
    for d in range(num_devices):
        lib.tessera_sharding_device_ranges(sharding, d, out, 2 * len(shape), None)
        boxes.append(tuple((out[2 * i], out[2 * i + 1]) for i in range(len(shape))))
    lib.tessera_sharding_destroy(sharding)
    return boxes


def piece_name(name, box):
    return name + "@" + ",".join(f"{a}:{b}" for a, b in box)


def run_case(lib, rng, case_index, tmp, counts):
    shape_m, names = rng.choice(MESHES)
    mode = rng.choice(list(MODES))
    tensors = [random_tensor(rng, shape_m, names, mode) for _ in range(rng.randint(1, 3))]
    num_devices = math.prod(shape_m)
    num_processes = rng.choice([n for n in (1, 2, 4, 8) if num_devices % n == 0])
    directory = os.path.join(tmp, f"case{case_index}")
    mesh = tessera_lib.cpu_mesh(lib, shape_m, names)
    arrays, layouts, boxes = [], [], []
    for i, t in enumerate(tensors):
        _, np_type = t["dtype"]
        n = math.prod(t["shape"])
        data = np.frombuffer(rng.randbytes(n * np.dtype(np_type).itemsize), dtype=np_type).reshape(t["shape"])
        arrays.append(data)
        spec = "P(" + ", ".join("None" if not g else repr(g[0]) if len(g) == 1 else
                                "(" + ", ".join(repr(a) for a in g) + ")" for g in t["layout"]) + ")"
        err = C.c_void_p()
        layout = lib.tessera_layout_from_partition_spec(spec.encode(), mesh, len(t["shape"]), C.byref(err))
        check(lib, layout, err, f"layout {spec}")
        layouts.append(layout)
        boxes.append(device_boxes(lib, layout, t["shape"], mode, num_devices))
    keep = []  # the buffers stay alive until the write returns
    for p in reversed(range(num_processes)):
        options = lib.tessera_save_options_create()
        lib.tessera_save_options_set_process(options, p, num_processes, None)
        lib.tessera_save_options_set_shard_mode(options, MODES[mode], None)
        err = C.c_void_p()
        saver = lib.tessera_checkpoint_saver_create(directory.encode(), options, C.byref(err))
        lib.tessera_save_options_destroy(options)
        check(lib, saver, err, "saver")
        for i, t in enumerate(tensors):
            ok = lib.tessera_checkpoint_saver_add_tensor(saver, f"t{i}".encode(), t["dtype"][0].encode(), layouts[i],
                                                         tessera_lib.int64s(t["shape"]), len(t["shape"]),
                                                         C.byref(err))
            check(lib, ok, err, f"add_tensor t{i} {t}")
            per = num_devices // num_processes
            for d in range(p * per, (p + 1) * per):
                box = boxes[i][d]
                raw = arrays[i][tuple(slice(a, b) for a, b in box)].tobytes()
                keep.append(raw)
                ok = lib.tessera_checkpoint_saver_set_shard(saver, i, d, raw, len(raw), C.byref(err))
                check(lib, ok, err, f"set_shard t{i} device {d}")
        check(lib, lib.tessera_checkpoint_saver_write(saver, C.byref(err)), err, f"write process {p}")
        if p == 0:
            check(lib, lib.tessera_checkpoint_saver_finish(saver, C.byref(err)), err, "finish")
        lib.tessera_checkpoint_saver_destroy(saver)
    for layout in layouts:
        lib.tessera_layout_destroy(layout)
    lib.tessera_mesh_destroy(mesh)

    # Expected: each distinct box with elements, in its first holder's process.
    expected = {}
    for i, t in enumerate(tensors):
        for d, box in enumerate(boxes[i]):
            if all(b > a for a, b in box):
                expected.setdefault(piece_name(f"t{i}", box), (i, box, d // (num_devices // num_processes)))
    stored = {}
    for p in range(num_processes):
        path = os.path.join(directory, f"process-{p:05d}-of-{num_processes:05d}.safetensors")
        with safe_open(path, framework="np") as f:
            meta = f.metadata()
            if meta.get("format") != "tessera.checkpoint" or meta.get("tessera.process") != str(p) or \
                    meta.get("tessera.num_processes") != str(num_processes):
                raise Failed(f"{path}: metadata {meta}")
            layouts_meta = json.loads(meta["tessera.layouts"])
            if sorted(layouts_meta) != sorted(f"t{i}" for i in range(len(tensors))):
                raise Failed(f"{path}: tessera.layouts names {sorted(layouts_meta)}")
            for key in f.keys():
                got = f.get_tensor(key)
                if key not in expected:
                    raise Failed(f"{path}: unexpected piece {key}")
                i, box, owner = expected[key]
                want = arrays[i][tuple(slice(a, b) for a, b in box)]
                if owner != p:
                    raise Failed(f"{path}: piece {key} belongs to process {owner}")
                if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
                    raise Failed(f"{path}: piece {key} differs from numpy's slice")
                if key in stored:
                    raise Failed(f"{key} stored twice")
                stored[key] = p
                counts["pieces"] += 1
        counts["files"] += 1
    if set(stored) != set(expected):
        raise Failed(f"pieces missing: {sorted(set(expected) - set(stored))}")
    with open(os.path.join(directory, "tessera-index.json"), encoding="utf-8") as f:
        index = json.load(f)
    for i, entry in enumerate(index["tensors"]):
        for piece in entry["pieces"]:
            box = tuple(tuple(r) for r in piece["ranges"])
            with open(os.path.join(directory, index["files"][piece["file"]]), "rb") as f:
                f.seek(piece["offset"])
                raw = f.read(piece["size"])
            if raw != arrays[i][tuple(slice(a, b) for a, b in box)].tobytes():
                raise Failed(f"index piece {entry['name']} {box}: bytes differ")
            counts["index_pieces"] += 1
    counts["cases"] += 1
    counts["tensors"] += len(tensors)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    tessera_lib.SIGNATURES.update(SIGNATURES)
    lib = tessera_lib.load(args.lib)
    rng = random.Random(args.seed)
    counts = {"cases": 0, "tensors": 0, "files": 0, "pieces": 0, "index_pieces": 0}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for c in range(args.count):
            try:
                run_case(lib, rng, c, tmp, counts)
            except Failed as e:
                failures += 1
                print(f"case {c}: {e}")
    print(f"{counts['cases']} saves ({counts['tensors']} tensors, {counts['files']} process files) opened by "
          f"safetensors: {counts['pieces']} pieces equal to numpy's slices, {counts['index_pieces']} index "
          f"offsets checked; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
