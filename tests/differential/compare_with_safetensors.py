# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Tessera's safetensors reader against the `safetensors` package (pinned).

Writes random files with safetensors.numpy.save_file (every numpy dtype the
package takes) and with raw headers for the dtypes numpy lacks (each one
checked to open in the package), sharded models with an index, and malformed
files; reads each with Tessera's dump tool and with safe_open, and compares
names, dtypes, shapes, offsets (8 + N + begin, from the file's own header),
sizes and metadata. A file the package refuses must be refused by Tessera
(INVALID_ARGUMENT) and one it accepts must be accepted, except where Tessera
is stricter on purpose (a key repeated in a JSON object). Prints the counts;
exits 1 on any difference.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save_file

NUMPY_DTYPES = {
    "BOOL": np.bool_, "U8": np.uint8, "I8": np.int8, "I16": np.int16, "U16": np.uint16, "F16": np.float16,
    "I32": np.int32, "U32": np.uint32, "F32": np.float32, "F64": np.float64, "I64": np.int64, "U64": np.uint64,
    "C64": np.complex64,
}
# Bits of the dtypes numpy has no type for, written as raw headers.
RAW_DTYPES = {"BF16": 16, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8,
              "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6}


def random_shape(rng):
    rank = rng.randint(0, 4)
    return [rng.choice([0, 1, 2, 3, 4, 5, 7, 8]) if rng.random() < 0.1 else rng.randint(1, 6) for _ in range(rank)]


def random_name(rng, used):
    while True:
        name = rng.choice(["model.layers.%d.weight", "h.%d.attn.c_attn", "t%d", "emb.%d", "ünï.%d"]) % rng.randint(0, 99)
        if name not in used:
            used.add(name)
            return name


def random_metadata(rng):
    if rng.random() < 0.3:
        return None
    return {"format": "np", **{f"k{i}": rng.choice(["", "x", "ü", '"q"', "a\nb"]) for i in range(rng.randint(0, 3))}}


def write_numpy_file(rng, path, count):
    used = set()
    tensors = {}
    for _ in range(count):
        dtype = NUMPY_DTYPES[rng.choice(sorted(NUMPY_DTYPES))]
        shape = random_shape(rng)
        values = np.random.default_rng(rng.randint(0, 2**32)).standard_normal(shape) * 10
        tensors[random_name(rng, used)] = np.ascontiguousarray(np.asarray(values).astype(dtype))
    save_file(tensors, path, metadata=random_metadata(rng))
    return list(tensors)


def write_raw_file(rng, path, count):
    """A header in the crate's layout (sorted by name, data packed) for dtypes numpy lacks."""
    used = set()
    header, offset = {}, 0
    metadata = random_metadata(rng)
    if metadata:
        header["__metadata__"] = metadata
    for _ in range(count):
        dtype = rng.choice(sorted(RAW_DTYPES))
        bits = RAW_DTYPES[dtype]
        while True:
            shape = random_shape(rng)
            elements = int(np.prod(shape)) if shape else 1
            if elements * bits % 8 == 0:
                break
        size = elements * bits // 8
        header[random_name(rng, used)] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(rng.getrandbits(8) for _ in range(offset)))


def package_view(path):
    """What the package reads: (ok, tensors {name: (dtype, shape, offset, size)}, metadata) or (False, error)."""
    try:
        with safe_open(path, framework="numpy") as f:
            names = list(f.keys())
            metadata = f.metadata() or {}
            shapes = {n: (f.get_slice(n).get_dtype(), list(f.get_slice(n).get_shape())) for n in names}
    except Exception as e:  # the package's SafetensorError and friends
        return False, f"{type(e).__name__}: {e}", None
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    view = {}
    for name in names:
        begin, end = header[name]["data_offsets"]
        view[name] = (shapes[name][0], shapes[name][1], 8 + n + begin, end - begin)
    return True, view, metadata


def tessera_views(dump, paths):
    out = subprocess.run([dump, *paths], check=True, capture_output=True, text=True).stdout.splitlines()
    return [json.loads(line) for line in out]


def compare_file(path, mine, failures):
    ok, view, metadata = package_view(path)
    if not ok:
        failures.append(f"{path}: the package refuses a file written to be good: {view}")
        return
    if not mine["ok"]:
        failures.append(f"{path}: Tessera refuses a file the package reads: {mine['message']}")
        return
    got = {t[0]: (t[1], t[2], t[4], t[5]) for t in mine["tensors"]}
    if got != view:
        failures.append(f"{path}: tensors differ:\n  tessera {got}\n  package {view}")
    if dict(mine["metadata"]) != metadata:
        failures.append(f"{path}: metadata differs: tessera {mine['metadata']} package {metadata}")
    if mine["files"] != [[path, os.path.getsize(path)]]:
        failures.append(f"{path}: files differ: {mine['files']}")


def write_sharded(rng, directory, files):
    """files numpy shards plus the index; returns the index path and the expected per-tensor view."""
    weight_map, expected, total = {}, {}, 0
    names = [f"model-{i + 1:05d}-of-{files:05d}.safetensors" for i in range(files)]
    used = set()
    for name in names:
        tensors = {}
        for _ in range(rng.randint(1, 4)):
            dtype = NUMPY_DTYPES[rng.choice(sorted(NUMPY_DTYPES))]
            tensors[random_name(rng, used)] = np.ascontiguousarray(np.zeros(random_shape(rng), dtype=dtype))
        path = os.path.join(directory, name)
        save_file(tensors, path, metadata={"format": "pt"})
        ok, view, _ = package_view(path)
        assert ok, view
        for tensor, v in view.items():
            weight_map[tensor] = name
            expected[tensor] = (name, *v)
            total += v[3]
    index = os.path.join(directory, "model.safetensors.index.json")
    items = list(weight_map.items())
    rng.shuffle(items)
    with open(index, "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": dict(items)}, f)
    return index, expected, total


def compare_sharded(index, expected, total, mine, failures):
    if not mine["ok"]:
        failures.append(f"{index}: Tessera refuses a good index: {mine['message']}")
        return
    directory = os.path.dirname(index)
    files = [os.path.basename(p) for p, _ in mine["files"]]
    got = {t[0]: (files[t[3]], t[1], t[2], t[4], t[5]) for t in mine["tensors"]}
    if got != expected:
        failures.append(f"{index}: tensors differ:\n  tessera {got}\n  package {expected}")
    if files != sorted(files) or any(os.path.getsize(os.path.join(directory, f)) != s
                                     for f, (_, s) in zip(files, mine["files"])):
        failures.append(f"{index}: files differ: {mine['files']}")
    if ["total_size", str(total)] not in mine["metadata"]:
        failures.append(f"{index}: total_size missing: {mine['metadata']}")


def malformed_variants(rng, data):
    """Byte-level and header-level damage of one good file's bytes."""
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = [
        data[:rng.randint(0, 7)],                       # shorter than the length
        data[:-1] if len(data) > 8 + n else data + b"x",  # data area one byte off
        data + b"\0",
        struct.pack("<Q", n + 1) + data[8:],             # length one past the header
        struct.pack("<Q", 100_000_001) + data[8:],       # over the header limit
        struct.pack("<Q", 2**64 - 1) + data[8:],
        data[:8] + b"\xff" + data[9:],                    # invalid UTF-8 at the first header byte
    ]
    names = [k for k in header if k != "__metadata__"]
    if names:
        def edited(edit):
            h = json.loads(json.dumps(header))
            edit(h[rng.choice(names)])
            text = json.dumps(h).encode()
            return struct.pack("<Q", len(text)) + text + data[8 + n:]
        out.append(edited(lambda t: t.update(dtype="F12")))
        out.append(edited(lambda t: t.update(shape=t["shape"] + [2])))
        out.append(edited(lambda t: t.update(shape=[-1])))
        out.append(edited(lambda t: t.update(data_offsets=[t["data_offsets"][0], t["data_offsets"][1] + 1])))
        out.append(edited(lambda t: t.update(data_offsets=[t["data_offsets"][1] + 1, t["data_offsets"][1]])))
        out.append(edited(lambda t: t.pop("data_offsets")))
        out.append(edited(lambda t: t.update(shape=[2**40, 2**40])))
    for _ in range(6):  # random damage inside the header
        b = bytearray(data)
        i = rng.randint(8, 8 + n - 1) if n else 0
        b[i] = rng.choice(b'{}[]",:0123456789-. \\ux\x00\xc3')
        out.append(bytes(b))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures, counts = [], {"numpy files": 0, "raw-dtype files": 0, "sharded models": 0, "malformed refused": 0,
                            "malformed accepted by both": 0, "stricter on purpose": 0}
    with tempfile.TemporaryDirectory() as work:
        good = []
        for i in range(args.count):
            path = os.path.join(work, f"np{i}.safetensors")
            write_numpy_file(rng, path, rng.randint(0, 6))
            good.append(path)
            counts["numpy files"] += 1
            path = os.path.join(work, f"raw{i}.safetensors")
            write_raw_file(rng, path, rng.randint(1, 6))
            good.append(path)
            counts["raw-dtype files"] += 1
        for path, mine in zip(good, tessera_views(args.dump, good)):
            compare_file(path, mine, failures)

        sharded = []
        for i in range(args.count // 3):
            directory = os.path.join(work, f"sharded{i}")
            os.mkdir(directory)
            sharded.append(write_sharded(rng, directory, rng.randint(1, 5)))
            counts["sharded models"] += 1
        for (index, expected, total), mine in zip(sharded, tessera_views(args.dump, [s[0] for s in sharded])):
            compare_sharded(index, expected, total, mine, failures)

        bad = []
        for i, path in enumerate(good[: args.count]):
            with open(path, "rb") as f:
                data = f.read()
            for j, variant in enumerate(malformed_variants(rng, data)):
                bad_path = os.path.join(work, f"bad{i}_{j}.safetensors")
                with open(bad_path, "wb") as f:
                    f.write(variant)
                bad.append(bad_path)
        for path, mine in zip(bad, tessera_views(args.dump, bad)):
            ok, view, _ = package_view(path)
            if ok and mine["ok"]:
                counts["malformed accepted by both"] += 1
                compare_file(path, mine, failures)
            elif not ok and not mine["ok"]:
                if mine["code"] != "INVALID_ARGUMENT":
                    failures.append(f"{path}: refused with {mine['code']}: {mine['message']}")
                counts["malformed refused"] += 1
            elif ok and "duplicate key" in mine["message"]:
                counts["stricter on purpose"] += 1
            elif ok:
                failures.append(f"{path}: Tessera refuses what the package reads: {mine['message']}")
            else:
                failures.append(f"{path}: Tessera reads what the package refuses ({view})")
    for failure in failures[:20]:
        print("FAIL", failure)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()), f"; {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
