# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Random layouts answered by torch (run in the torch virtual environment,
torch_requirements.txt): one JSON line per case with the mesh, the layout as
Tessera writes it (a tuple of axis names per tensor dim), the global shape,
torch's placements for it and their repr, and for every mesh coordinate
torch's local shape and global offset (its pure helper, no process group)
plus the element indices torch's own placement split gives each device.

The placements follow the rule Tessera documents in tessera/torch.h: mesh dim
m is Replicate() when no tensor dim uses its axis, Shard(d) when d's group of
axes runs in mesh order at m, _StridedShard(dim=d, sf=...) otherwise, sf being
the product of the group's axes before m in the group and after m in the
mesh. Building them here, from torch's own classes, is what makes the repr
torch's.

With --kind sampler the lines are DistributedSampler's instead (tessera/
experimental/keras_data.h's sample level): for N samples, S replicas and
drop_last, every rank's list(DistributedSampler(range(N), num_replicas=S,
rank=i, shuffle=False, drop_last=d)) and len(), and for ranks past the end
(and S = 0) the ValueError torch raises. Every N <= 20 with S <= 8 first,
then random N up to 200 and S up to 16. Negative ranks and counts are not
expressible through the C ABI's size_t; tests/core/interleave_test.cc pins
torch's text for them.

With --kind shuffled-sampler the lines are the same with shuffle=True, a
random seed and set_epoch(epoch) (tessera_interleave_samples_shuffled):
random N up to 3000, a few up to 10^5 and one of 2^20 + 1, seeds anywhere in
the range torch's manual_seed takes for seed + epoch ([-2^63, 2^64), so
negative sums and seeds past 2^32 come too), epochs from -3 to 100.

Usage: torch_cases.py [--kind sampler|shuffled-sampler] --count N --seed S > cases.jsonl
"""
import argparse
import itertools
import json
import math
import random
import warnings

warnings.filterwarnings("ignore")  # torch warns that numpy is absent; unused here
import torch  # noqa: E402
from torch.utils.data.distributed import DistributedSampler  # noqa: E402
from torch.distributed.tensor._utils import _compute_local_shape_and_global_offset  # noqa: E402
from torch.distributed.tensor.placement_types import Replicate, Shard, _StridedShard  # noqa: E402

AXIS_NAMES = ["a", "b", "c"]


def random_case(rng):
    mesh_rank = rng.randint(1, 3)
    mesh_shape = [rng.randint(1, 4) for _ in range(mesh_rank)]
    names = rng.sample(AXIS_NAMES, mesh_rank)
    rank = rng.randint(1, 3)
    free = names[:]
    rng.shuffle(free)
    layout = [[] for _ in range(rank)]
    for axis in free:
        if rng.random() < 0.75:
            layout[rng.randrange(rank)].append(axis)
    # Shapes around the shard counts, so both divisible and uneven sizes come.
    shape = []
    for group in layout:
        k = math.prod(mesh_shape[names.index(a)] for a in group)
        shape.append(rng.choice([k * rng.randint(1, 3), rng.randint(0, 2 * k + 3)]))
    return mesh_shape, names, layout, shape


def placements_for(mesh_shape, names, layout):
    out = []
    for m, axis in enumerate(names):
        found = [(d, g) for d, g in enumerate(layout) if axis in g]
        if not found:
            out.append(Replicate())
            continue
        d, group = found[0]
        pos = group.index(axis)
        sf = math.prod(mesh_shape[names.index(a)] for a in group[:pos] if names.index(a) > m)
        out.append(Shard(d) if sf == 1 else _StridedShard(d, split_factor=sf))
    return out


def split_indices(n, mesh_shape, coord, placements, dim):
    """The indices of dim `dim` a device at `coord` holds: torch's own split of
    each placement on that dim, applied mesh dim by mesh dim."""
    t = torch.arange(n)
    for m, p in enumerate(placements):
        # _StridedShard is not a Shard subclass in torch 2.15.
        if isinstance(p, (Shard, _StridedShard)) and p.dim == dim:
            one_d = _StridedShard(0, split_factor=p.split_factor) if isinstance(p, _StridedShard) else Shard(0)
            chunks, _ = one_d._split_tensor(t, mesh_shape[m], with_padding=False)
            t = chunks[coord[m]]
    return t.tolist()


def answer(mesh_shape, names, layout, shape):
    placements = placements_for(mesh_shape, names, layout)
    devices = []
    for coord in itertools.product(*[range(s) for s in mesh_shape]):
        local, offset = _compute_local_shape_and_global_offset(shape, mesh_shape, list(coord), placements)
        devices.append({
            "coord": list(coord),
            "local_shape": list(local),
            "offset": list(offset),
            "indices": [split_indices(n, mesh_shape, coord, placements, d) for d, n in enumerate(shape)],
        })
    return {"mesh_shape": mesh_shape, "names": names, "layout": layout, "shape": shape,
            "placements": repr(placements), "devices": devices}


def sampler_answer(num_items, num_replicas, drop_last, ranks, shuffle=None):
    """`shuffle`: None, or (seed, epoch) for shuffle=True after set_epoch(epoch)."""
    reads = []
    for rank in ranks:
        try:
            sampler = DistributedSampler(range(num_items), num_replicas=num_replicas, rank=rank,
                                         shuffle=shuffle is not None, seed=shuffle[0] if shuffle else 0,
                                         drop_last=drop_last)
            if shuffle:
                sampler.set_epoch(shuffle[1])
            reads.append({"rank": rank, "indices": list(sampler), "len": len(sampler)})
        except ValueError as e:
            reads.append({"rank": rank, "error": "ValueError", "message": str(e)})
    answer = {"kind": "sampler", "num_items": num_items, "num_replicas": num_replicas, "drop_last": drop_last,
              "ranks": reads}
    if shuffle:
        answer["seed"], answer["epoch"] = shuffle
    return answer


def sampler_cases(rng, count):
    """Every rank of each (N, S, drop_last), and one or two ranks past the end."""
    for num_items in range(21):
        for num_replicas in range(9):
            for drop_last in (False, True):
                yield num_items, num_replicas, drop_last, list(range(num_replicas + 2))
    for _ in range(count):
        num_replicas = rng.randint(1, 16)
        # Around the replica count too, so that fewer samples than replicas come.
        num_items = rng.choice([rng.randint(0, 200), rng.randint(0, num_replicas), num_replicas * rng.randint(0, 12)])
        ranks = list(range(num_replicas)) + [num_replicas + rng.randint(0, 20)]
        yield num_items, num_replicas, rng.random() < 0.5, ranks


def shuffled_sampler_cases(rng, count):
    """Every rank of each (N, S, drop_last, seed, epoch), and one rank past the end."""
    sizes = [100000, 99991, 2**20 + 1]
    for k in range(count):
        num_replicas = rng.randint(1, 16)
        if k < len(sizes):
            num_items = sizes[k]
        else:
            num_items = rng.choice([rng.randint(0, 3000), rng.randint(0, num_replicas), rng.randint(0, 40)])
        epoch = rng.randint(-3, 100)
        # seed + epoch must stay in manual_seed's [-2^63, 2^64).
        seed = rng.choice([rng.randint(0, 1000), rng.randint(0, 2**32 + 10), rng.randint(-2**63, -1),
                           rng.randint(0, 2**64 - 1)])
        seed = min(max(seed, -2**63 - epoch), 2**64 - 1 - epoch)
        ranks = list(range(num_replicas)) + [num_replicas + rng.randint(0, 20)]
        yield num_items, num_replicas, rng.random() < 0.5, ranks, (seed, epoch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["placements", "sampler", "shuffled-sampler"], default="placements")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.kind != "placements":
        cases = sampler_cases if args.kind == "sampler" else shuffled_sampler_cases
        for case in cases(rng, args.count):
            print(json.dumps(sampler_answer(*case)))
        return
    print(json.dumps(answer([3, 2], ["a", "b"], [["b", "a"]], [7])))  # torch.h's example
    for _ in range(args.count - 1):
        print(json.dumps(answer(*random_case(rng))))


if __name__ == "__main__":
    main()
