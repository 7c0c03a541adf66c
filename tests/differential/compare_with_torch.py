# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Compares libtessera's PyTorch placements and chunk-nested shards with
torch's answers (torch_cases.py's JSON lines): the placements text must be
torch's repr exactly, parsing that repr must give the layout back, and every
device's index ranges in TESSERA_SHARD_MODE_CHUNK_NESTED must be the elements
torch's own split gives it. Where torch gives some device elements that are
not one range, Tessera must refuse the sharding (tessera/shard.h); any other
refusal is a difference, and so is accepting such a case.

Sampler lines (torch_cases.py --kind sampler): for every rank,
tessera_interleave_samples must answer torch's len() as its count and
torch's list as its indices, and where torch raises ValueError it must fail
with INVALID_ARGUMENT and torch's message. Shuffled ones (a seed and an
epoch) ask tessera_interleave_samples_shuffled the same, with seed and epoch
as their 64-bit two's complement, as torch's manual_seed reads their sum.

Usage: compare_with_torch.py --lib path/to/libtessera.so.0 cases.jsonl...
Exits 1 on any difference, listing the first few.
"""
import argparse
import ctypes as C
import json
import re
import sys

import tessera_lib as T

T.SIGNATURES.update({
    "tessera_layout_to_torch_placements": (C.c_void_p, [C.c_void_p, T._ERR]),
    "tessera_layout_from_torch_placements": (C.c_void_p, [C.c_char_p, C.c_void_p, C.c_size_t, T._ERR]),
    "tessera_layout_equal": (C.c_bool, [C.c_void_p, C.c_void_p]),
    "tessera_sharding_create": (C.c_void_p, [C.c_void_p, T._I64S, C.c_size_t, C.c_int, T._ERR]),
    "tessera_sharding_destroy": (None, [C.c_void_p]),
    "tessera_sharding_device_ranges": (C.c_size_t, [C.c_void_p, C.c_size_t, T._I64S, C.c_size_t, T._ERR]),
    "tessera_interleave_samples": (C.c_size_t, [C.c_size_t, C.c_size_t, C.c_size_t, C.c_bool,
                                                C.POINTER(C.c_size_t), C.c_size_t, T._ERR]),
    "tessera_interleave_samples_shuffled": (C.c_size_t, [C.c_size_t, C.c_size_t, C.c_size_t, C.c_bool,
                                                         C.c_uint64, C.c_uint64, C.POINTER(C.c_size_t),
                                                         C.c_size_t, T._ERR]),
    "tessera_error_code": (C.c_int, [C.c_void_p]),
    "tessera_code_name": (C.c_char_p, [C.c_int]),
})
CHUNK_NESTED = 2


def partition_spec(layout):
    def entry(group):
        if not group:
            return "None"
        if len(group) == 1:
            return repr(group[0])
        return "(" + ", ".join(repr(a) for a in group) + ")"
    return "P(" + ", ".join(entry(g) for g in layout) + ")"


def as_range(indices):
    """(start, stop) when `indices` is a contiguous ascending run, else None;
    an empty piece is any empty range."""
    if not indices:
        return "empty"
    if indices == list(range(indices[0], indices[-1] + 1)):
        return (indices[0], indices[-1] + 1)
    return None


def same_range(torch_range, start, stop):
    if torch_range == "empty":
        return start == stop
    return torch_range == (start, stop)


class Counts:
    def __init__(self):
        self.cases = self.strided = self.devices = 0
        self.refused_noncontiguous = 0
        self.strided_uneven = 0  # a _StridedShard dim its shard count does not divide, all ranges
        self.parsed_equivalent = 0
        self.differences = []

    def differ(self, case, what):
        self.differences.append(f"mesh {case['mesh_shape']} {case['names']} layout {case['layout']} "
                                f"shape {case['shape']}: {what}")


def has_unit_axis_in_group(case):
    extent = dict(zip(case["names"], case["mesh_shape"]))
    return any(len(g) > 1 and any(extent[a] == 1 for a in g) for g in case["layout"])


def named_piece(message):
    """(dim, device, elements) that a refusal names, or None."""
    m = re.search(r"dimension (\d+) .* gives device (\d+) \(mesh coordinate \([^)]*\)\) elements (.*), not one range",
                  message)
    if not m:
        return None
    elements = [i for a, b in re.findall(r"\[(\d+), (\d+)\)", m.group(3)) for i in range(int(a), int(b))]
    return int(m.group(1)), int(m.group(2)), elements


def first_noncontiguous(case, torch_ranges):
    """(dim, device, elements) of torch's first piece that is not one range:
    the lowest dim, then the first device in mesh order."""
    for dim in range(len(case["shape"])):
        for i, ranges in enumerate(torch_ranges):
            if ranges[dim] is None:
                return dim, i, case["devices"][i]["indices"][dim]
    return None


def strided_uneven(case):
    """Some dim is split by a _StridedShard (its group against mesh order) and
    its size is not divisible by its shard count: torch's pieces there are
    not nested chunking."""
    extent = dict(zip(case["names"], case["mesh_shape"]))
    for group, size in zip(case["layout"], case["shape"]):
        mesh_dims = [case["names"].index(a) for a in group if extent[a] > 1]
        shards = 1
        for a in group:
            shards *= extent[a]
        if mesh_dims != sorted(mesh_dims) and size % shards != 0:
            return True
    return False


def check(lib, case, counts):
    counts.cases += 1
    counts.strided += "_StridedShard" in case["placements"]
    mesh = T.cpu_mesh(lib, case["mesh_shape"], case["names"])
    rank = len(case["shape"])
    err = C.c_void_p()
    layout = lib.tessera_layout_from_partition_spec(partition_spec(case["layout"]).encode(), mesh, rank,
                                                    C.byref(err))
    if not layout:
        counts.differ(case, "layout: " + T.take_error(lib, err))
        lib.tessera_mesh_destroy(mesh)
        return
    try:
        buffer = lib.tessera_layout_to_torch_placements(layout, C.byref(err))
        text = T.take_text(lib, buffer) if buffer else "error: " + T.take_error(lib, err)
        if text != case["placements"]:
            counts.differ(case, f"placements {text!r}, torch {case['placements']!r}")
        back = lib.tessera_layout_from_torch_placements(case["placements"].encode(), mesh, rank, C.byref(err))
        if not back:
            counts.differ(case, "parsing torch's repr: " + T.take_error(lib, err))
        else:
            if not lib.tessera_layout_equal(back, layout):
                # Axes of extent 1 add no split factor, so their order within a
                # group is not in the placements: the parse must then at least
                # print the same placements.
                again = T.take_text(lib, lib.tessera_layout_to_torch_placements(back, None))
                if again == case["placements"] and has_unit_axis_in_group(case):
                    counts.parsed_equivalent += 1
                else:
                    counts.differ(case, f"parsing torch's repr gives another layout, printed {again!r}")
            lib.tessera_layout_destroy(back)
        check_ranges(lib, case, layout, counts)
    finally:
        lib.tessera_layout_destroy(layout)
        lib.tessera_mesh_destroy(mesh)


def check_ranges(lib, case, layout, counts):
    rank = len(case["shape"])
    torch_ranges = [[as_range(ix) for ix in d["indices"]] for d in case["devices"]]
    # torch's pure helper must agree with its own split wherever the split is a range.
    for d, ranges in zip(case["devices"], torch_ranges):
        for r, size, offset in zip(ranges, d["local_shape"], d["offset"]):
            if r is not None and not same_range(r, offset, offset + size):
                counts.differ(case, f"torch's helper {d['local_shape']}@{d['offset']} at {d['coord']} "
                                    f"is not its split {d['indices']}")
    err = C.c_void_p()
    sharding = lib.tessera_sharding_create(layout, T.int64s(case["shape"]), rank, CHUNK_NESTED, C.byref(err))
    all_ranges = all(r is not None for ranges in torch_ranges for r in ranges)
    if not sharding:
        message = T.take_error(lib, err)
        if all_ranges:
            counts.differ(case, f"refused ({message}) where torch's pieces are ranges "
                                f"{[d['indices'] for d in case['devices']]}")
        elif named_piece(message) != first_noncontiguous(case, torch_ranges):
            counts.differ(case, f"refused naming {named_piece(message)}, torch's first piece that is not one "
                                f"range is {first_noncontiguous(case, torch_ranges)}: {message}")
        else:
            counts.refused_noncontiguous += 1
        return
    if not all_ranges:
        counts.differ(case, "accepted where torch gives a device elements that are not one range")
    elif strided_uneven(case):
        counts.strided_uneven += 1
    out = T.int64s([0] * (2 * rank))
    for i, (d, ranges) in enumerate(zip(case["devices"], torch_ranges)):
        counts.devices += 1
        lib.tessera_sharding_device_ranges(sharding, i, out, 2 * rank, None)
        for dim, r in enumerate(ranges):
            start, stop = out[2 * dim], out[2 * dim + 1]
            if r is None or not same_range(r, start, stop):
                counts.differ(case, f"device {d['coord']} dim {dim}: Tessera [{start}, {stop}), "
                                    f"torch {d['indices'][dim]}")
    lib.tessera_sharding_destroy(sharding)


class SamplerCounts:
    def __init__(self):
        self.cases = self.ranks = self.errors = 0
        self.differences = []

    def differ(self, case, rank, what):
        shuffle = f", shuffle=True, seed={case['seed']}, epoch={case['epoch']}" if "seed" in case else ""
        self.differences.append(f"DistributedSampler(range({case['num_items']}), num_replicas="
                                f"{case['num_replicas']}, rank={rank}, drop_last={case['drop_last']}{shuffle}): "
                                f"{what}")


def head(indices, shown=12):
    """A list as printed in a difference: a shuffled case may hold 10^6 indices."""
    return str(indices) if len(indices) <= shown else str(indices[:shown])[:-1] + ", ...]"


def check_sampler(lib, case, counts):
    counts.cases += 1
    if "seed" in case:
        function = lib.tessera_interleave_samples_shuffled
        shuffle = (case["seed"] % 2**64, case["epoch"] % 2**64)
    else:
        function, shuffle = lib.tessera_interleave_samples, ()
    for read in case["ranks"]:
        rank = read["rank"]
        args = (case["num_items"], case["num_replicas"], rank, case["drop_last"], *shuffle)
        err = C.c_void_p()
        count = function(*args, None, 0, C.byref(err))
        if "error" in read:
            counts.errors += 1
            if not err:
                counts.differ(case, rank, f"Tessera reads {count} samples, torch raises {read['message']!r}")
                continue
            code = lib.tessera_code_name(lib.tessera_error_code(err)).decode()
            message = T.take_error(lib, err)
            if code != "INVALID_ARGUMENT" or message != read["message"]:
                counts.differ(case, rank, f"Tessera {code} {message!r}, torch ValueError {read['message']!r}")
            continue
        counts.ranks += 1
        if err:
            counts.differ(case, rank, f"Tessera fails: {T.take_error(lib, err)}")
            continue
        out = (C.c_size_t * max(count, 1))()
        filled = function(*args, out, count, None)
        indices = list(out[:filled])
        if count != read["len"] or indices != read["indices"]:
            counts.differ(case, rank, f"Tessera {count} samples {head(indices)}, torch len {read['len']} "
                                      f"{head(read['indices'])}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    lib = T.load(args.lib)
    counts = Counts()
    sampler = SamplerCounts()
    shuffled = SamplerCounts()
    for path in args.cases:
        with open(path) as f:
            for line in f:
                case = json.loads(line)
                if case.get("kind") == "sampler":
                    check_sampler(lib, case, shuffled if "seed" in case else sampler)
                else:
                    check(lib, case, counts)
    print(f"{counts.cases} cases ({counts.strided} with a _StridedShard, {counts.strided_uneven} of them on a "
          f"size its shard count does not divide, placed as torch does), {counts.devices} device shards "
          f"equal to torch's, {counts.refused_noncontiguous} refused where torch gives a device elements that "
          f"are not one range, {counts.parsed_equivalent} parsed back to an equal placement (extent-1 axes "
          f"reordered), {len(counts.differences)} differences")
    for d in counts.differences[:20]:
        print("  " + d)
    print(f"{sampler.cases} DistributedSampler cases: {sampler.ranks} ranks' indices and lengths, "
          f"{sampler.errors} ValueErrors, {len(sampler.differences)} differences")
    for d in sampler.differences[:20]:
        print("  " + d)
    print(f"{shuffled.cases} shuffled DistributedSampler cases: {shuffled.ranks} ranks' indices and lengths, "
          f"{shuffled.errors} ValueErrors, {len(shuffled.differences)} differences")
    for d in shuffled.differences[:20]:
        print("  " + d)
    return 1 if counts.differences or sampler.differences or shuffled.differences else 0


if __name__ == "__main__":
    sys.exit(main())
