#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Random checkpoints, rules and meshes for `tessera load`, answered by jax.

Each case is a directory holding a checkpoint written by the `safetensors`
package (one file, or a sharded model of 2 or 3 files and its index; float32,
float16, bfloat16, int8 and int32 arrays of ranks 0 to 3), a rules file in
the CLI's format (Python re patterns over the tensor names, re.search or, in
a quarter of the cases, re.fullmatch (--match full); an exact name winning)
and a mesh of 8 devices (1-D, 2-D or 3-D, axis names drawn from a pool). Every array is placed with
jax.device_put(array, NamedSharding(mesh, PartitionSpec(...))) on a mesh made
from jax.devices() in order, with the spec the rules select for it (no rule:
replicated); the spec uses some of the mesh's axes, so tensors come sharded,
partially replicated and fully replicated, with shapes divisible as strict
mode (and jax) require.

For each simulated job of N processes (N in 1, 2, 4; process P owns logical
devices [P*8/N, (P+1)*8/N), contract 2 of issue 12) the answer is:
  hashes      {device id: {tensor name: SHA-256 of the shard's bytes}} from
              jax's addressable shards of P's devices (np.asarray(shard.data))
  boxes       {device id: {tensor name: "[start:stop, ...] bytes"}}, the
              shard's index and size as `tessera load` prints them without
              --sha256
  read_bytes  the bytes of P's distinct boxes, each tensor's replicated piece
              once per process, summed here from the boxes jax reports
  read_bytes_gap_64k  the bytes of the reads covering those boxes' runs in
              the files when runs at most 64 KiB apart share a read (the
              read plan's default), gaps included
Every jax shard's bytes are also checked against numpy's slice of the array
it came from (array[shard.index]); a difference there ends the run (exit 1)
before any Tessera answer is asked for.

Writes one JSON object per case on stdout. Run with
XLA_FLAGS=--xla_force_host_platform_device_count=8 JAX_PLATFORMS=cpu.

Usage: load_cases.py --count N --seed S --out DIR > cases.jsonl
"""
import argparse
import hashlib
import json
import os
import random
import re
import sys

import ml_dtypes
import numpy as np
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from safetensors.numpy import save_file

DEVICES = 8
PROCESS_COUNTS = [1, 2, 4]
MESH_SHAPES = [[8], [2, 4], [4, 2], [1, 8], [8, 1], [2, 2, 2], [2, 4, 1], [1, 2, 4], [4, 1, 2]]
AXIS_NAMES = ["data", "model", "x", "y", "z", "fsdp", "tp", "batch", "expert", "seq"]
DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16,
          "int8": np.int8, "int32": np.int32}
# Tensor kinds: the name pattern (%d a layer number) and the rank; the rules
# select a spec per kind, so one pattern covers every layer's tensor of it.
KINDS = [
    ("model.layers.%d.self_attn.q_proj.weight", 2),
    ("model.layers.%d.self_attn.o_proj.weight", 2),
    ("model.layers.%d.mlp.up_proj.weight", 2),
    ("model.layers.%d.mlp.down_proj.weight", 2),
    ("model.layers.%d.mlp.up_proj.bias", 1),
    ("model.layers.%d.input_layernorm.weight", 1),
    ("model.layers.%d.experts.w1", 3),
    ("model.layers.%d.conv.kernel", 3),
    ("model.layers.%d.step", 0),
    ("lm_head.%d.weight", 2),
    ("embed_tokens.%d", 2),
    ("h.%d.attn.c_attn.bias", 1),
    ("ünï.%d.scale", 1),
    ("model.layers.%d.wide_proj.weight", 2),
]
# Rows of this kind are long (thousands of elements), so that a process's
# part of a row can lie more than the read plan's 64 KiB coalescing gap from
# its next part: reads that skip bytes, not only reads of whole tensors.
WIDE = "model.layers.%d.wide_proj.weight"


def random_spec(rng, axes, rank):
    """Each mesh axis unused or given to one dimension, in a random order within it."""
    groups = [[] for _ in range(rank)]
    if rank:
        for axis in axes:
            if rng.random() < 0.6:
                groups[rng.randrange(rank)].append(axis)
    for group in groups:
        rng.shuffle(group)
    return groups


def format_axes(groups):
    """The rules file's tuple text: ((a, b), None) / (a,) / ()."""
    entries = ["None" if not g else g[0] if len(g) == 1 else "(" + ", ".join(g) + ")" for g in groups]
    return "(" + ", ".join(entries) + ("," if len(entries) == 1 else "") + ")"


def kind_pattern(rng, template):
    """A Python re pattern that finds every layer's tensor of this kind."""
    head, tail = template.split("%d")
    escaped_tail = re.escape(tail)
    return rng.choice([
        re.escape(head) + r"\d+" + escaped_tail,
        re.escape(head) + r"[0-9]+" + escaped_tail + "$",
        "^" + re.escape(head) + r".*" + escaped_tail,
        escaped_tail + "$",
    ])


def select_rule(rules, name, match):
    """The rule the layout map picks (an exact key wins, else the one pattern
    that matches: re.search, or re.fullmatch with --match full)."""
    for pattern, groups in rules:
        if pattern == name:
            return groups
    find = re.fullmatch if match == "full" else re.search
    matches = [groups for pattern, groups in rules if find(pattern, name)]
    if len(matches) > 1:
        return "ambiguous"
    return matches[0] if matches else None


def random_array(rng, dtype, shape):
    gen = np.random.default_rng(rng.getrandbits(64))
    if dtype in ("int8", "int32"):
        info = np.iinfo(DTYPES[dtype])
        values = gen.integers(info.min, info.max, size=shape, endpoint=True, dtype=DTYPES[dtype])
    else:
        values = (gen.standard_normal(shape) * 4).astype(DTYPES[dtype])
    # A rank-0 draw is a numpy scalar, which save_file refuses; np.array keeps
    # its rank (np.ascontiguousarray would make it [1]).
    return np.array(values, order="C")


def random_shape(rng, mesh, groups, wide):
    shape = []
    for dim, group in enumerate(groups):
        count = int(np.prod([mesh.shape[a] for a in group])) if group else 1
        if wide:
            shape.append(count * (rng.choice([4096, 16384, 32768]) // count if dim else rng.randint(1, 2)))
        elif rng.random() < 0.03:
            shape.append(0)
        else:
            shape.append(count * rng.choice([1, 1, 2, 3, 4, 5, 16, 37]))
    return shape


def write_checkpoint(rng, directory, tensors):
    """One .safetensors file, or (a third of the time) a sharded model: 2 or
    3 files and the index naming each tensor's file. Returns the path to load."""
    os.makedirs(directory, exist_ok=True)
    names = list(tensors)
    if len(names) < 2 or rng.random() < 2 / 3:
        path = os.path.join(directory, "model.safetensors")
        save_file(tensors, path)
        return path
    files = rng.randint(2, min(3, len(names)))
    rng.shuffle(names)
    cuts = sorted(rng.sample(range(1, len(names)), files - 1))
    weight_map = {}
    for i, part in enumerate(np.split(np.array(names, dtype=object), cuts)):
        file_name = f"model-{i + 1:05d}-of-{files:05d}.safetensors"
        save_file({name: tensors[name] for name in part}, os.path.join(directory, file_name))
        weight_map.update({name: file_name for name in part})
    index = os.path.join(directory, "model.safetensors.index.json")
    with open(index, "w", encoding="utf-8") as f:
        json.dump({"metadata": {"total_size": sum(a.nbytes for a in tensors.values())},
                   "weight_map": weight_map}, f, ensure_ascii=False)
    return index


def make_case(rng, directory, devices):
    mesh_shape = rng.choice(MESH_SHAPES)
    axis_names = rng.sample(AXIS_NAMES, len(mesh_shape))
    mesh = Mesh(np.array(devices).reshape(mesh_shape), tuple(axis_names))
    kinds = rng.sample(KINDS, rng.randint(2, 6))
    names, rank_of, wide = [], {}, set()
    for template, rank in kinds:
        for layer in rng.sample(range(40), rng.randint(1, 3)):
            names.append(template % layer)
            rank_of[template % layer] = rank
            if template == WIDE:
                wide.add(template % layer)
    # The layout map's two ways to match (tessera load --match).
    match = "full" if rng.random() < 0.25 else "search"
    candidates = []
    for template, rank in kinds:
        # No rule for some kinds: replicated by default; a spec of Nones or
        # one leaving axes out: replicated over those axes.
        if rng.random() < 0.8:
            candidates.append((kind_pattern(rng, template), random_spec(rng, axis_names, rank)))
    # An exact name overriding its kind's pattern, as the layout map allows.
    if rng.random() < 0.3:
        name = rng.choice(names)
        candidates.append((name, random_spec(rng, axis_names, rank_of[name])))
    # Loose patterns (a tail such as '\.weight$') may find other kinds'
    # tensors: a rule is kept only if every tensor still selects one rule of
    # its own rank, since a load refuses the others.
    rules = []
    for rule in candidates:
        trial = rules + [rule]
        if all(select_rule(trial, n, match) != "ambiguous" and len(select_rule(trial, n, match) or [[]] * rank_of[n])
               == rank_of[n] for n in names):
            rules = trial
    rng.shuffle(rules)

    tensors, specs = {}, {}
    for name in names:
        groups = select_rule(rules, name, match) or [[] for _ in range(rank_of[name])]
        dtype = rng.choice(sorted(DTYPES))
        tensors[name] = random_array(rng, dtype, random_shape(rng, mesh, groups, name in wide))
        specs[name] = groups
    checkpoint = write_checkpoint(rng, directory, tensors)
    rules_path = os.path.join(directory, "rules.txt")
    with open(rules_path, "w", encoding="utf-8") as f:
        f.write("# random rules (load_cases.py)\n")
        for pattern, groups in rules:
            f.write(f"{pattern} -> {format_axes(groups)}\n")
    return mesh, axis_names, match, checkpoint, rules_path, tensors, specs


def box(index, shape):
    """jax's shard index as [start, stop) per dimension."""
    return tuple((s.start or 0, shape[d] if s.stop is None else s.stop) for d, s in enumerate(index))


def box_text(ranges, itemsize):
    """A box as `tessera load` prints it without --sha256: "[0:4, 2:4] 32"."""
    return "[" + ", ".join(f"{a}:{b}" for a, b in ranges) + f"] {box_bytes(ranges, itemsize)}"


def box_bytes(ranges, itemsize):
    return int(np.prod([stop - start for start, stop in ranges])) * itemsize


def jax_answers(mesh, tensors, specs, checked):
    """{device id: {name: (hex, box)}} from jax's addressable shards; numpy's
    slice of each array checked against the shard's bytes (counted in
    checked[0])."""
    shards = {}
    for name, array in tensors.items():
        entries = [None if not g else g[0] if len(g) == 1 else tuple(g) for g in specs[name]]
        placed = jax.device_put(array, NamedSharding(mesh, PartitionSpec(*entries)))
        for shard in placed.addressable_shards:
            data = np.asarray(shard.data).tobytes()
            if data != array[shard.index].tobytes():
                sys.exit(f"jax's shard of {name} on device {shard.device.id} differs from numpy's "
                         f"slice {shard.index}")
            checked[0] += 1
            shards.setdefault(shard.device.id, {})[name] = (
                hashlib.sha256(data).hexdigest(), box(shard.index, array.shape))
    return shards


def data_offsets(checkpoint):
    """{name: (file, absolute offset of its data in the file)} from the files'
    own headers, in the checkpoint's order: a sharded model's files in the
    order of their names, each file's tensors in its header's order."""
    if checkpoint.endswith(".index.json"):
        with open(checkpoint, encoding="utf-8") as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
        paths = [os.path.join(os.path.dirname(checkpoint), name) for name in files]
    else:
        paths = [checkpoint]
    offsets = {}
    for path in paths:
        with open(path, "rb") as f:
            length = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(length))
        offsets.update({name: (path, 8 + length + entry["data_offsets"][0])
                        for name, entry in header.items() if name != "__metadata__"})
    return offsets


def box_runs(array, ranges, where):
    """The box's contiguous byte runs, (file, start, stop) each."""
    path, offset = where
    if any(start == stop for start, stop in ranges):
        return []
    flat = np.arange(array.size).reshape(array.shape)[tuple(slice(a, b) for a, b in ranges)].ravel()
    breaks = np.flatnonzero(np.diff(flat) != 1) + 1
    runs = []
    for part in np.split(flat, breaks):
        runs.append((path, offset + int(part[0]) * array.itemsize,
                     offset + (int(part[-1]) + 1) * array.itemsize))
    return runs


def coalesced_bytes(runs, gap):
    """The bytes of the reads that cover `runs` when two runs of a file at
    most `gap` bytes apart share a read, the gap included (the read plan's
    rule)."""
    total, current = 0, None
    for path, start, stop in sorted(runs):
        if current and path == current[0] and start - current[2] <= gap:
            current[2] = max(current[2], stop)
            continue
        if current:
            total += current[2] - current[1]
        current = [path, start, stop]
    return total + (current[2] - current[1] if current else 0)


def process_answers(shards, tensors, offsets):
    """Per N and P: the hashes of P's devices, the bytes of its distinct
    boxes and those of the reads covering them with the default 64 KiB
    coalescing gap."""
    out = {}
    for count in PROCESS_COUNTS:
        per = DEVICES // count
        for process in range(count):
            owned = range(process * per, (process + 1) * per)
            read, runs = 0, []
            for name, array in tensors.items():
                boxes = {shards[d][name][1] for d in owned}
                read += sum(box_bytes(b, array.itemsize) for b in boxes)
                for b in boxes:
                    runs += box_runs(array, b, offsets[name])
            out[f"{count}/{process}"] = {
                "hashes": {str(d): {name: shards[d][name][0] for name in tensors} for d in owned},
                "boxes": {str(d): {name: box_text(shards[d][name][1], array.itemsize)
                                   for name, array in tensors.items()} for d in owned},
                "read_bytes": read,
                "read_bytes_gap_64k": coalesced_bytes(runs, 64 * 1024),
            }
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    devices = jax.devices()
    if len(devices) != DEVICES or [d.id for d in devices] != list(range(DEVICES)):
        sys.exit(f"jax sees devices {[d.id for d in devices]}, need ids 0..{DEVICES - 1}: "
                 f"set XLA_FLAGS=--xla_force_host_platform_device_count={DEVICES}")
    rng = random.Random(args.seed)
    checked = [0]
    for i in range(args.count):
        directory = os.path.join(args.out, f"case{i:03d}")
        mesh, axis_names, match, checkpoint, rules_path, tensors, specs = make_case(rng, directory, devices)
        offsets = data_offsets(checkpoint)
        print(json.dumps({
            "case": i,
            "checkpoint": checkpoint,
            "rules": rules_path,
            "mesh": ",".join(f"{a}={mesh.shape[a]}" for a in axis_names),
            "match": match,
            "header_order": list(offsets),
            "tensors": {n: {"dtype": str(a.dtype), "shape": list(a.shape), "spec": specs[n]}
                        for n, a in tensors.items()},
            "processes": process_answers(jax_answers(mesh, tensors, specs, checked), tensors, offsets),
        }, ensure_ascii=False))
    print(f"load cases: {args.count} checkpoints, {checked[0]} jax shards equal to numpy's slices",
          file=sys.stderr)


if __name__ == "__main__":
    main()
