#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Planning the restore of a 70B Llama checkpoint saved on 64 devices onto
128: torch.distributed.checkpoint's DefaultLoadPlanner against Tessera's
resharding plan through the C ABI, side by side in one run (issue 13).

The model: 80 layers of Llama 3 70B (hidden 8192, intermediate 28672, 64
heads and 8 kv heads of 128, vocab 128256, bf16), 723 tensors. Layouts:
  fsdp  every tensor Shard(0) over all ranks: a mesh dp=64 -> dp=128.
  2d    dp x tp, dp=8,tp=8 -> dp=16,tp=8: column-parallel weights (q, k, v,
        gate, up, embeddings, lm_head) (tp, dp), row-parallel (o, down)
        (dp, tp), norms (dp,).
torch: the checkpoint's Metadata (a TensorStorageMetadata per tensor, one
ChunkStorageMetadata per distinct saved shard, from the same chunking torch
uses: torch.chunk per mesh axis), then per destination rank a
DefaultLoadPlanner set up on a state dict of that rank's tensors (global-shape
views of a 0-d tensor that report the rank's chunk through
__create_chunk_list__, as a DTensor does) and its create_local_plan(): the
ReadItems of every rank, timed over all ranks in this process.
Tessera: benchmarks/reshard_compare (C): per tensor tessera_reshard_plan_create
from the saved sharding to the new one, then every transfer and its ranges
read back: the reads of every destination device.
Both must agree on the number of reads; the script fails otherwise. Prints
medians of --rounds rounds and the ratio torch / Tessera.

Usage: torch_reshard_compare.py --tessera build/benchmarks/reshard_compare
                                [--layout fsdp|2d|all] [--rounds 3]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
from torch.distributed.checkpoint.default_planner import DefaultLoadPlanner
from torch.distributed.checkpoint.metadata import (
    ChunkStorageMetadata,
    Metadata,
    TensorProperties,
    TensorStorageMetadata,
)

HIDDEN, INTERMEDIATE, HEADS, KV_HEADS, HEAD_DIM, VOCAB, LAYERS = 8192, 28672, 64, 8, 128, 128256, 80
COLUMN, ROW, NORM = "column", "row", "norm"


def llama_70b():
    """(name, shape, kind) of every tensor, in checkpoint order."""
    tensors = [("model.embed_tokens.weight", (VOCAB, HIDDEN), COLUMN)]
    for i in range(LAYERS):
        p = f"model.layers.{i}."
        tensors += [
            (p + "self_attn.q_proj.weight", (HEADS * HEAD_DIM, HIDDEN), COLUMN),
            (p + "self_attn.k_proj.weight", (KV_HEADS * HEAD_DIM, HIDDEN), COLUMN),
            (p + "self_attn.v_proj.weight", (KV_HEADS * HEAD_DIM, HIDDEN), COLUMN),
            (p + "self_attn.o_proj.weight", (HIDDEN, HEADS * HEAD_DIM), ROW),
            (p + "mlp.gate_proj.weight", (INTERMEDIATE, HIDDEN), COLUMN),
            (p + "mlp.up_proj.weight", (INTERMEDIATE, HIDDEN), COLUMN),
            (p + "mlp.down_proj.weight", (HIDDEN, INTERMEDIATE), ROW),
            (p + "input_layernorm.weight", (HIDDEN,), NORM),
            (p + "post_attention_layernorm.weight", (HIDDEN,), NORM),
        ]
    tensors += [("model.norm.weight", (HIDDEN,), NORM), ("lm_head.weight", (VOCAB, HIDDEN), COLUMN)]
    return tensors


# Per layout: the source and destination meshes (axis -> size, row-major) and
# each kind's axis per dimension (None: replicated).
LAYOUTS = {
    "fsdp": ({"dp": 64}, {"dp": 128},
             {COLUMN: ("dp", None), ROW: ("dp", None), NORM: ("dp",)}),
    "2d": ({"dp": 8, "tp": 8}, {"dp": 16, "tp": 8},
           {COLUMN: ("tp", "dp"), ROW: ("dp", "tp"), NORM: ("dp",)}),
}


def chunk(n, parts, i):
    """torch.chunk's piece i of range(n) as (start, size)."""
    size = -(-n // parts)
    start = min(i * size, n)
    return start, min(size, n - start)


def device_chunks(shape, mesh, axes):
    """Per device in mesh order, (offsets, sizes) of its shard."""
    names = list(mesh)
    sizes = [mesh[a] for a in names]
    count = 1
    for s in sizes:
        count *= s
    result = []
    for device in range(count):
        coords, rest = [], device
        for s in reversed(sizes):
            coords.append(rest % s)
            rest //= s
        coords.reverse()
        offsets, lengths = [], []
        for d, n in enumerate(shape):
            axis = axes[d] if d < len(axes) else None
            if axis is None:
                offsets.append(0)
                lengths.append(n)
            else:
                start, size = chunk(n, mesh[axis], coords[names.index(axis)])
                offsets.append(start)
                lengths.append(size)
        result.append((tuple(offsets), tuple(lengths)))
    return result


def torch_metadata(tensors, mesh, kinds):
    state = {}
    for name, shape, kind in tensors:
        seen, chunks = set(), []
        for offsets, sizes in device_chunks(shape, mesh, kinds[kind]):
            if (offsets, sizes) not in seen:  # replicas are saved once
                seen.add((offsets, sizes))
                chunks.append(ChunkStorageMetadata(offsets=torch.Size(offsets),
                                                   sizes=torch.Size(sizes)))
        state[name] = TensorStorageMetadata(
            properties=TensorProperties(dtype=torch.bfloat16), size=torch.Size(shape), chunks=chunks)
    return Metadata(state_dict_metadata=state)


def rank_state_dicts(tensors, mesh, kinds):
    """Per destination rank, {name: a global-shape tensor reporting its chunk}."""
    scalar = torch.zeros((), dtype=torch.bfloat16)
    per_tensor = [device_chunks(shape, mesh, kinds[kind]) for _, shape, kind in tensors]
    ranks = len(per_tensor[0])
    dicts = []
    for rank in range(ranks):
        state = {}
        for (name, shape, _), chunks in zip(tensors, per_tensor):
            view = scalar.expand(shape)
            offsets, sizes = chunks[rank]
            local = [ChunkStorageMetadata(offsets=torch.Size(offsets), sizes=torch.Size(sizes))]
            view.__create_chunk_list__ = (lambda local=local: local)
            state[name] = view
        dicts.append(state)
    return dicts


def torch_plan(dicts, metadata):
    """Every rank's local load plan; (seconds, read items)."""
    start = time.perf_counter()
    items = 0
    for rank, state in enumerate(dicts):
        planner = DefaultLoadPlanner()
        planner.set_up_planner(state, metadata, is_coordinator=rank == 0)
        items += len(planner.create_local_plan().items)
    return time.perf_counter() - start, items


def mesh_arg(mesh):
    return ",".join(f"{a}={s}" for a, s in mesh.items())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tessera", required=True, help="path to benchmarks/reshard_compare")
    parser.add_argument("--layout", choices=["fsdp", "2d", "all"], default="all")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    tensors = llama_70b()
    params = sum(torch.Size(shape).numel() for _, shape, _ in tensors)
    print(f"torch {torch.__version__}, {len(tensors)} tensors, {params / 1e9:.1f}B parameters, "
          f"load average {os.getloadavg()[0]:.2f}")
    failed = False
    for layout in (["fsdp", "2d"] if args.layout == "all" else [args.layout]):
        source, destination, kinds = LAYOUTS[layout]
        metadata = torch_metadata(tensors, source, kinds)
        dicts = rank_state_dicts(tensors, destination, kinds)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            for name, shape, kind in tensors:
                axes = kinds[kind]
                spec = " ".join(a or "-" for a in axes)
                f.write(f"{name} {len(shape)} {' '.join(map(str, shape))} {spec} {spec}\n")
            listing = f.name
        try:
            torch_times, tessera_times, items = [], [], None
            for _ in range(args.rounds):  # interleaved, so both see the same machine
                seconds, items = torch_plan(dicts, metadata)
                torch_times.append(seconds)
                out = subprocess.run([args.tessera, listing, mesh_arg(source), mesh_arg(destination), "5"],
                                     check=True, capture_output=True, text=True).stdout
                fields = dict(kv.split("=") for kv in out.split()[1:])
                tessera_times.append(float(fields["median_ns"]) * 1e-9)
            transfers = int(fields["transfers"])
        finally:
            os.unlink(listing)
        torch_s, tessera_s = statistics.median(torch_times), statistics.median(tessera_times)
        print(f"{layout}: {mesh_arg(source)} -> {mesh_arg(destination)}: "
              f"torch DefaultLoadPlanner (128 ranks) {torch_s * 1e3:.1f} ms, {items} read items; "
              f"tessera {tessera_s * 1e3:.2f} ms, {transfers} transfers; "
              f"ratio {torch_s / tessera_s:.0f}x")
        if items != transfers:
            print(f"{layout}: torch plans {items} reads, tessera {transfers}", file=sys.stderr)
            failed = True
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
