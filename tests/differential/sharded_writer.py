# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""An independent writer of sharded Tessera checkpoints (issue 13, contracts
1-3 of the index format), in Python with numpy and the `safetensors`
package: the round-trip and jax tests save with it, so restore is checked
against a writer that shares no code with Tessera.

Shard math here is written from the definitions (sharding.md §1), not
from Tessera's code: a mesh of D devices has logical devices 0..D-1 in
row-major order; dimension d split over the axis group (a1..ak) has
k = size(a1)*...*size(ak) shards, a device's shard index being the
mixed-radix number of its coordinates on (a1..ak), a1 most significant;
strict: shard i = [i*n/k, (i+1)*n/k) (k divides n); chunk-flat:
c = ceil(n/k), shard i = [min(i*c, n), min((i+1)*c, n)); chunk-nested:
the elements PyTorch DTensor gives the device (sharding.md §4.2, §4.3),
found by applying its placements to the list of a dimension's indices,
refused where they are not one range.

A save is run by every process of the saving job (process P of N owns
devices [P*D/N, (P+1)*D/N)); each writes the distinct shards whose first
holder in mesh order it owns, crash-safe (a temporary name, fsync, rename);
then process 0 writes tessera-index.json from the files' headers.
"""
import json
import math
import os
import struct

import numpy as np
from safetensors.numpy import save_file

DTYPES = {
    np.dtype("float32"): "F32", np.dtype("float16"): "F16", np.dtype("float64"): "F64",
    np.dtype("int8"): "I8", np.dtype("int16"): "I16", np.dtype("int32"): "I32", np.dtype("int64"): "I64",
    np.dtype("uint8"): "U8", np.dtype("bool"): "BOOL",
}
INDEX = "tessera-index.json"


def file_name(process, num_processes):
    return f"process-{process:05d}-of-{num_processes:05d}.safetensors"


class Mesh:
    def __init__(self, axes):
        """axes: [(name, size), ...] in mesh order."""
        self.names = [a for a, _ in axes]
        self.sizes = [n for _, n in axes]
        self.size = math.prod(self.sizes)

    def coords(self, device):
        out = []
        for n in reversed(self.sizes):
            out.append(device % n)
            device //= n
        return out[::-1]

    def json(self):
        return {"shape": [str(n) for n in self.sizes], "axisNames": self.names,
                "devices": [{"id": str(i), "localOrdinal": str(i)} if i else {} for i in range(self.size)]}

    def spec(self):
        return ",".join(f"{a}={n}" for a, n in zip(self.names, self.sizes))


def shards_of(group, mesh):
    return math.prod(mesh.sizes[mesh.names.index(a)] for a in group)


class NotOneRange(ValueError):
    """chunk-nested: PyTorch gives a device elements that are not one range."""


def torch_chunk(elements, parts, i):
    """torch.chunk(elements, parts)[i]: chunks of ceil(len/parts), empty past the last."""
    c = -(-len(elements) // parts)
    return elements[i * c:(i + 1) * c]


def torch_elements(group, mesh, n, coords):
    """The indices of a dimension of size n that PyTorch's placements give the
    device at `coords`, in its local order. One placement per mesh dim, in
    mesh order, each applied to the elements the previous ones left: the
    group's axis m is Shard when sf == 1, else _StridedShard(sf), where sf
    multiplies the sizes of the group's axes before m in the group and after
    m in the mesh (§4.3). Shard takes torch.chunk `coord`; _StridedShard
    cuts the elements into sf chunks and takes chunk `coord` of each (§4.2)."""
    elements = list(range(n))
    for m, name in enumerate(mesh.names):
        if name not in group:
            continue
        position = group.index(name)
        sf = math.prod(mesh.sizes[mesh.names.index(a)] for a in group[:position] if mesh.names.index(a) > m)
        pieces = [torch_chunk(elements, sf, j) for j in range(sf)]
        elements = [e for piece in pieces for e in torch_chunk(piece, mesh.sizes[m], coords[m])]
    return elements


def nested_range(group, mesh, n, coords):
    elements = torch_elements(group, mesh, n, coords)
    if not elements:
        return (n, n)
    if elements != list(range(elements[0], elements[0] + len(elements))):
        raise NotOneRange(f"{group} on {mesh.spec()}, size {n}: PyTorch gives coordinates {coords} {elements}")
    return (elements[0], elements[-1] + 1)


def placeable(layout, mesh, shape, mode):
    """Whether every device's box is one range per dimension in `mode`."""
    try:
        for device in range(mesh.size):
            box(layout, mesh, shape, mode, device)
    except NotOneRange:
        return False
    return True


def box(layout, mesh, shape, mode, device):
    """The device's [start, stop) per dimension; layout: one tuple of axis
    names per dimension (empty: replicated). NotOneRange where chunk-nested
    cannot place a dimension."""
    coords = mesh.coords(device)
    out = []
    for group, n in zip(layout, shape):
        if mode == "chunk-nested":
            out.append(nested_range(group, mesh, n, coords))
            continue
        k, i = 1, 0
        for a in group:
            size = mesh.sizes[mesh.names.index(a)]
            i = i * size + coords[mesh.names.index(a)]
            k *= size
        if mode == "strict":
            assert n % k == 0, (n, k)
            out.append((i * n // k, (i + 1) * n // k))
        else:
            assert mode == "chunk-flat", mode
            c = -(-n // k)
            out.append((min(i * c, n), min((i + 1) * c, n)))
    return out


def layout_json(layout, mesh):
    return {"dims": [{"axes": list(g)} if g else {} for g in layout], "mesh": mesh.json()}


def distinct(layout, mesh, shape, mode):
    """[(ranges, first holder)] of the boxes with elements, in order of first holder."""
    seen = {}
    for d in range(mesh.size):
        b = tuple(box(layout, mesh, shape, mode, d))
        if all(s < e for s, e in b) and b not in seen:
            seen[b] = d
    return list(seen.items())


def piece_name(name, ranges):
    return name + "@" + ",".join(f"{s}:{e}" for s, e in ranges)


def save_process(directory, tensors, process, num_processes):
    """tensors: [(name, array, mesh, layout, mode)]. Writes this process's file."""
    pieces, layouts = {}, {}
    for name, array, mesh, layout, mode in tensors:
        per = mesh.size // num_processes
        layouts[name] = {"mesh": mesh.json(), "layout": layout_json(layout, mesh)}
        for ranges, holder in distinct(layout, mesh, array.shape, mode):
            if holder // per == process:
                # np.array keeps a rank-0 piece rank 0 (ascontiguousarray makes it [1]).
                pieces[piece_name(name, ranges)] = np.array(array[tuple(slice(s, e) for s, e in ranges)], order="C")
    final = os.path.join(directory, file_name(process, num_processes))
    tmp = f"{final}.tmp.{os.getpid()}"
    save_file(pieces, tmp, metadata={"format": "tessera.checkpoint", "tessera.process": str(process),
                                     "tessera.num_processes": str(num_processes),
                                     "tessera.layouts": json.dumps(layouts)})
    fd = os.open(tmp, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    os.rename(tmp, final)


def read_header(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        return 8 + n, json.loads(f.read(n))


def finish(directory, tensors, num_processes):
    """Process 0, after every process saved: the index, from the headers."""
    where = {}
    files = [file_name(p, num_processes) for p in range(num_processes)]
    for f, name in enumerate(files):
        base, header = read_header(os.path.join(directory, name))
        for key, entry in header.items():
            if key != "__metadata__":
                begin, end = entry["data_offsets"]
                where[key] = (f, base + begin, end - begin)
    out = []
    for name, array, mesh, layout, mode in tensors:
        pieces = []
        for ranges, _ in sorted(distinct(layout, mesh, array.shape, mode)):
            f, offset, size = where[piece_name(name, ranges)]
            pieces.append({"file": f, "offset": offset, "size": size, "ranges": [list(r) for r in ranges]})
        out.append({"name": name, "dtype": DTYPES[array.dtype], "shape": list(array.shape), "mesh": mesh.json(),
                    "layout": layout_json(layout, mesh), "shard_mode": mode, "pieces": pieces})
    index = {"format": "tessera.checkpoint", "version": 1, "num_processes": num_processes, "files": files,
             "tensors": out}
    tmp = os.path.join(directory, f"{INDEX}.tmp.{os.getpid()}")
    with open(tmp, "w") as f:
        json.dump(index, f)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, os.path.join(directory, INDEX))
    fd = os.open(directory, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def save(directory, tensors, num_processes, fork=True):
    """The whole job, each process a real (forked) process; without `fork`
    (a caller whose threads forbid it, as jax's) one after the other here."""
    if not fork:
        for p in range(num_processes):
            save_process(directory, tensors, p, num_processes)
        finish(directory, tensors, num_processes)
        return
    children = []
    for p in range(num_processes):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                save_process(directory, tensors, p, num_processes)
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    for pid in children:
        _, status = os.waitpid(pid, 0)
        if status != 0:
            raise RuntimeError(f"a saving process failed (status {status})")
    finish(directory, tensors, num_processes)
