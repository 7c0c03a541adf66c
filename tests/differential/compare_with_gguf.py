# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Tessera's GGUF header reader against the gguf package (PyPI, pinned).

Random files written with gguf.GGUFWriter (metadata of every value type,
nested and long arrays, every tensor type the package knows, quantized ones
as raw blocks, custom alignments, split models) are read by gguf.GGUFReader
and by Tessera (the gguf_dump test executable); names, types, blocks, shapes
(Tessera outermost first, GGUF innermost first), absolute offsets, sizes,
file indices and the metadata rendered as core/checkpoint/gguf.h documents
must agree. Also ggml's type table: every id the package knows. Exits 1 on
any difference.

Usage (in the gguf virtual environment): compare_with_gguf.py --dump gguf_dump --count N --seed S
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import gguf
from gguf import GGMLQuantizationType as Q, GGUFValueType as V

SHOWN = 16  # core/checkpoint/gguf.cc's kShownElements
SCALARS = [V.UINT8, V.INT8, V.UINT16, V.INT16, V.UINT32, V.INT32, V.FLOAT32, V.BOOL,
           V.UINT64, V.INT64, V.FLOAT64]
RANGES = {V.UINT8: (0, 2**8 - 1), V.INT8: (-2**7, 2**7 - 1), V.UINT16: (0, 2**16 - 1),
          V.INT16: (-2**15, 2**15 - 1), V.UINT32: (0, 2**32 - 1), V.INT32: (-2**31, 2**31 - 1),
          V.UINT64: (0, 2**64 - 1), V.INT64: (-2**63, 2**63 - 1)}
# gguf-py's GGML_QUANT_SIZES gives Q8_1 40 bytes a block (ggml's old f32 d and
# s); ggml's block_q8_1 is two halves and 32 quants, 36 bytes, what Tessera
# has. Q8_1 is ggml's internal dot-product type, never written to files.
PACKAGE_DIFFERS = {Q.Q8_1}
NUMPY_TYPES = {Q.F32: np.float32, Q.F16: np.float16, Q.F64: np.float64, Q.I8: np.int8,
               Q.I16: np.int16, Q.I32: np.int32, Q.I64: np.int64}


def random_text(rng):
    alphabet = "abcXYZ09 ,[]._-\"\\\n\u00e9\u4e2d\U0001F600"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def random_scalar(rng, vtype):
    if vtype in RANGES:
        lo, hi = RANGES[vtype]
        return rng.choice([lo, hi, 0, rng.randint(lo, hi)])
    if vtype == V.BOOL:
        return rng.random() < 0.5
    if vtype == V.STRING:
        return random_text(rng)
    specials = [0.0, -0.0, float("inf"), float("-inf"), 1e-40, 3.4e38, 0.1]
    value = rng.choice(specials) if rng.random() < 0.3 else rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)
    if vtype == V.FLOAT32:
        return float(np.float32(value)) if np.isfinite(np.float32(value)) or not np.isfinite(value) else 0.0
    return value


def add_metadata(rng, writer, index):
    key = f"test.{index}.{random_text(rng).replace(chr(10), '')}"
    kind = rng.random()
    if kind < 0.5:
        vtype = rng.choice(SCALARS + [V.STRING])
        writer.add_key_value(key, random_scalar(rng, vtype), vtype)
    elif kind < 0.85:
        sub = rng.choice(SCALARS + [V.STRING])
        n = rng.choice([1, 2, 5, SHOWN, SHOWN + 1, 40])
        writer.add_key_value(key, [random_scalar(rng, sub) for _ in range(n)], V.ARRAY, sub_type=sub)
    else:  # nested: the writer infers inner types (int -> INT32, float -> FLOAT32, str, bool)
        leaf = rng.choice([lambda: rng.randint(-2**31, 2**31 - 1), lambda: random_text(rng),
                           lambda: rng.random() < 0.5])
        rows = rng.randint(1, 20)
        writer.add_key_value(key, [[leaf() for _ in range(rng.randint(1, 18))] for _ in range(rows)], V.ARRAY)


def add_tensor(rng, writer, index, split, qtype):
    block, type_size = gguf.GGML_QUANT_SIZES[qtype]
    dims = [rng.randint(1, 3) for _ in range(rng.randint(0, 3))] + [block * rng.randint(1, 3)]
    if not split and rng.random() < 0.1:
        dims[0] = 0 if len(dims) > 1 else dims[0]
    name = f"blk.{index}.{random_text(rng).replace(chr(10), '')}"
    if qtype in NUMPY_TYPES:
        writer.add_tensor(name, np.zeros(dims, dtype=NUMPY_TYPES[qtype]))
    else:
        byte_shape = dims[:-1] + [dims[-1] // block * type_size]
        writer.add_tensor(name, np.zeros(byte_shape, dtype=np.uint8), raw_dtype=qtype)


def write_case(rng, directory, case):
    path = os.path.join(directory, f"m{case}.gguf")
    n_tensors = rng.randint(0, 8)
    split = n_tensors >= 2 and rng.random() < 0.3
    writer = gguf.GGUFWriter(path, arch=random_text(rng) or "llama",
                             split_max_tensors=rng.randint(1, n_tensors - 1) if split else 0)
    # GGUFWriter puts general.alignment in the first split only but pads every
    # split with it, leaving the others unreadable; and a split holding only
    # empty tensors ends before its data section. Neither is asked of it.
    if not split and rng.random() < 0.5:
        writer.add_custom_alignment(2 ** rng.randint(0, 9))
    for i in range(rng.randint(0, 12)):
        add_metadata(rng, writer, i)
    for i in range(n_tensors):
        add_tensor(rng, writer, i, split, rng.choice([q for q in gguf.GGML_QUANT_SIZES if q not in PACKAGE_DIFFERS]))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return writer.format_shard_names(writer.path)


def render(vtype, parts):
    vtype = V(vtype)
    if vtype == V.STRING:
        next(parts)
        return bytes(next(parts))
    if vtype == V.ARRAY:
        itype = int(next(parts)[0])
        n = int(next(parts)[0])
        items = [render(itype, parts) for _ in range(n)]
        text = b", ".join(items[:SHOWN])
        if n > SHOWN:
            text += b", ... (%d elements)" % n
        return b"[" + text + b"]"
    value = next(parts)[0]
    if vtype == V.BOOL:
        return b"true" if value else b"false"
    if vtype == V.FLOAT32:
        return b"%.9g" % float(value)
    if vtype == V.FLOAT64:
        return b"%.17g" % float(value)
    return b"%d" % int(value)


def expected(paths):
    lines = []
    for index, path in enumerate(paths):
        reader = gguf.GGUFReader(path)
        lines.append({"kind": "file", "path": str(path).encode(), "size": os.path.getsize(path)})
        for t in reader.tensors:
            block, type_size = gguf.GGML_QUANT_SIZES[t.tensor_type]
            lines.append({"kind": "tensor", "name": t.name.encode(), "type": t.tensor_type.name,
                          "block_elements": block, "block_bytes": type_size,
                          "shape": [int(n) for n in reversed(t.shape.tolist())], "file_index": index,
                          "offset": int(t.data_offset), "size": int(t.n_bytes)})
        if index == 0:
            metadata = []
            for key, field in reader.fields.items():
                if key.startswith("GGUF."):  # the reader's own version and counts
                    continue
                metadata.append({"kind": "metadata", "key": key.encode(),
                                 "value": render(field.types[0], iter(field.parts[3:]))})
    # Tessera lists files, then tensors, then the first file's metadata.
    order = {"file": 0, "tensor": 1, "metadata": 2}
    return sorted(lines, key=lambda line: order[line["kind"]]) + metadata


def actual(dump, path):
    out = subprocess.run([dump, str(path)], check=True, capture_output=True, text=True).stdout
    lines = []
    for text in out.splitlines():
        line = json.loads(text)
        for field in ("path", "name", "key", "value", "message"):
            if field in line:
                line[field] = bytes.fromhex(line[field])
        lines.append(line)
    return lines


def compare_types(dump):
    out = subprocess.run([dump, "--types"], check=True, capture_output=True, text=True).stdout
    tessera = {line["id"]: line for line in map(json.loads, out.splitlines())}
    differences = 0
    for qtype in Q:
        if qtype in PACKAGE_DIFFERS:
            continue
        block, type_size = gguf.GGML_QUANT_SIZES[qtype]
        want = {"id": int(qtype), "name": qtype.name, "block_elements": block, "block_bytes": type_size}
        if tessera.get(int(qtype)) != want:
            print(f"type {int(qtype)}: gguf {want}, tessera {tessera.get(int(qtype))}")
            differences += 1
    extra = sorted(set(tessera) - {int(q) for q in Q})
    print(f"types: {len(Q) - len(PACKAGE_DIFFERS)} compared ({[q.name for q in PACKAGE_DIFFERS]} not); Tessera also knows {[tessera[i]['name'] for i in extra]}")
    return differences


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    differences = compare_types(args.dump)
    files = splits = tensors = entries = refused = 0
    with tempfile.TemporaryDirectory() as directory:
        for case in range(args.count):
            paths = write_case(rng, directory, case)
            got = actual(args.dump, paths[0])
            try:
                want = expected(paths)
            except ValueError as error:  # the writer left a broken file: Tessera must refuse it too
                refused += 1
                if [line["kind"] for line in got] != ["error"]:
                    differences += 1
                    print(f"case {case}: gguf refuses ({error}), tessera reads it")
                else:
                    print(f"case {case}: both refuse: gguf {error}; tessera {got[0]['message'].decode()}")
                continue
            files += len(paths)
            splits += len(paths) > 1
            tensors += sum(line["kind"] == "tensor" for line in want)
            entries += sum(line["kind"] == "metadata" for line in want)
            if got != want:
                differences += 1
                print(f"case {case} ({paths[0]}):")
                for g, w in zip(got + [None] * len(want), want + [None] * len(got)):
                    if g != w:
                        print(f"  gguf    {w}\n  tessera {g}")
                        break
            for path in paths:
                os.remove(path)
    print(f"gguf differential: {args.count} models ({files} files, {splits} split), {tensors} tensors, "
          f"{entries} metadata entries, {refused} refused by both: {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
