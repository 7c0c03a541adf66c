#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""`tessera load` against the safetensors package's get_slice and against a
sequential read, side by side in one run, each with the file's page cache
dropped first (issue 12's load benchmark).

Writes a safetensors checkpoint of about --gib GiB (float16 and float32
matrices; --tensors mixed: most rows narrow enough that a process's half of a
row is below the loader's 64 KiB coalescing gap, wide: none), checked to open
in the package. Then on a batch=2,model=4 mesh, for each of the 2 processes of a job
(process P holds devices 4P..4P+3) and for row shards (rule
`.* -> ((batch, model), None)`) and column shards (`.* -> (None, (batch,
model))`), times:
  tessera     `tessera load` of the process's shards (a child process):
              as it is (shards read and dropped; io_uring where the kernel
              allows it), with --sha256, with --gap-bytes 0 (no gap read),
              and with TESSERA_LOAD_IO=pread (--tessera-mode chooses; an
              ARGS word NAME=VALUE before the options goes to the environment)
  get_slice   safe_open(path, "numpy").get_slice(name)[rows, cols] for every
              box of the process's devices (a child process; the time inside
              it, without the interpreter's start)
  sequential  a read of the process's shard bytes from the file's start with
              8 MiB reads (a child process; the time inside it)
Before every run the file's pages are dropped with
posix_fadvise(POSIX_FADV_DONTNEED) (the share of them still resident is
printed). The guest cannot drop the host's cache of a VM's disk, and a
reader is faster on bytes the reader before it fetched (the sequential read
of the file's first bytes took 1.1-1.2 s right after get_slice had read the
whole file, 3.1-3.5 s after readers of row shards), so the runs interleave
the readers in an order that turns by one each run (run k starts with the
k-th reader): with --runs a multiple of the readers, each follows every
other equally often. Before a case's runs, --warmup rounds of every reader
go untimed: the host's cache then holds what that case's readers touch, as
it does for the cases after it (without one, the first column case,
process 0's, came after row cases that had touched only half of each
tensor, and its sequential read's median was 1.1-2.1 s over six runs of
the script against 1.0-1.6 s in process 1's). Prints per case the medians of --runs runs,
throughput over the shard bytes, the ratios
tessera/sequential (throughput) and get_slice/tessera (time), the bytes each
reader says it read, the bytes the block layer read for it (ru_inblock), the
CPU seconds of the child (user + system, interpreter start included), and
each reader's peak RSS (the child's ru_maxrss from wait4; get_slice's counts
the file's pages it mapped) against the shard bytes plus the staging budget.

Usage: load_compare.py --tessera path/to/tessera --work DIR [--gib 2.5]
                       [--runs 3] [--warmup 1] [--tensors mixed|wide] [--tessera-mode LABEL=ARGS ...] [--keep]
"""
import argparse
import ctypes
import json
import os
import shlex
import statistics
import struct
import subprocess
import sys
import time

MESH = "batch=2,model=4"
DEVICES, PROCESSES = 8, 2
RULES = {"rows": ".* -> ((batch, model), None)\n", "cols": ".* -> (None, (batch, model))\n"}
# (dtype, itemsize, shape, count) at --gib 2.5; scaled by the number of each.
# "mixed": a process's half of a row is 8 KiB to 128 KiB, mostly under the
# loader's 64 KiB coalescing gap, so column shards read the gaps too; "wide":
# halves of 128 KiB, so column shards skip the gaps.
TENSOR_SETS = {
    "mixed": [("F16", 2, (8192, 8192), 6), ("F32", 4, (4096, 16384), 4),
              ("F16", 2, (16384, 16384), 1), ("F32", 4, (1024, 65536), 1)],
    "wide": [("F32", 4, (1024, 65536), 6), ("F16", 2, (2048, 131072), 2)],
}

GET_SLICE = r"""
import json, sys, time
from safetensors import safe_open
path, boxes = sys.argv[1], json.loads(sys.argv[2])
start = time.perf_counter()
total = 0
with safe_open(path, "numpy") as f:
    for name, pieces in boxes:
        view = f.get_slice(name)
        for r0, r1, c0, c1 in pieces:
            total += view[r0:r1, c0:c1].nbytes
print(time.perf_counter() - start, total)
"""

SEQUENTIAL = r"""
import sys, time
path, size = sys.argv[1], int(sys.argv[2])
buffer = memoryview(bytearray(8 << 20))
start = time.perf_counter()
done = 0
with open(path, "rb", buffering=0) as f:
    while done < size:
        n = f.readinto(buffer[: min(len(buffer), size - done)])
        if not n:
            break
        done += n
print(time.perf_counter() - start, done)
"""


def tensor_list(gib, kind):
    scale = gib / 2.5
    out = []
    for dtype, itemsize, shape, count in TENSOR_SETS[kind]:
        for i in range(max(1, round(count * scale))):
            out.append((f"model.layers.{len(out)}.{dtype.lower()}_{shape[0]}x{shape[1]}.weight",
                        dtype, itemsize, shape))
    return out


def write_checkpoint(path, tensors):
    """A safetensors file written in the format's layout (the package would
    need every array in memory at once), filled from one random block."""
    header, offset = {}, 0
    for name, dtype, itemsize, shape in tensors:
        size = shape[0] * shape[1] * itemsize
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    block = os.urandom(64 << 20)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        left = offset
        while left:
            n = min(left, len(block))
            f.write(block[:n])
            left -= n
        f.flush()
        os.fsync(f.fileno())


def opens_as(python, path, tensors):
    """Whether the safetensors package opens `path` with exactly `tensors`."""
    if not os.path.exists(path):
        return False
    names = subprocess.run([python, "-c", "import sys, json\nfrom safetensors import safe_open\n"
                            "with safe_open(sys.argv[1], 'numpy') as f:\n"
                            "    print(json.dumps({n: f.get_slice(n).get_shape() for n in f.keys()}))", path],
                           capture_output=True, text=True).stdout
    return bool(names) and json.loads(names) == {name: list(shape) for name, _, _, shape in tensors}


def process_boxes(tensors, layout, process):
    """[(name, [(r0, r1, c0, c1) per device of the process])] and their bytes."""
    per = DEVICES // PROCESSES
    out, size = [], 0
    for name, _, itemsize, (rows, cols) in tensors:
        pieces = []
        for device in range(process * per, (process + 1) * per):
            if layout == "rows":
                pieces.append((device * rows // DEVICES, (device + 1) * rows // DEVICES, 0, cols))
            else:
                pieces.append((0, rows, device * cols // DEVICES, (device + 1) * cols // DEVICES))
        size += sum((r1 - r0) * (c1 - c0) * itemsize for r0, r1, c0, c1 in pieces)
        out.append((name, pieces))
    return out, size


_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


def resident_share(path):
    """The share of the file's pages in the page cache (mincore)."""
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        address = _libc.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        pages = (size + 4095) // 4096
        vector = (ctypes.c_ubyte * pages)()
        _libc.mincore(address, size, vector)
        _libc.munmap(address, size)
        return sum(v & 1 for v in vector) / pages
    finally:
        os.close(fd)


def drop_cache(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def with_environment(load, words):
    """`load` with the mode's options; its leading NAME=VALUE words set the
    environment (through env(1), whose exec the wall time includes)."""
    settings = []
    while words and "=" in words[0] and not words[0].startswith("-"):
        settings.append(words.pop(0))
    return (["env"] + settings if settings else []) + load + words


def run_measured(command):
    """(wall seconds, stdout, peak RSS bytes, bytes read from storage, CPU
    seconds): wait4 gives this child's own rusage (ru_inblock counts 512-byte
    blocks the block layer delivered for it, readahead and page faults
    included)."""
    read_end, write_end = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(write_end, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{shlex.join(command)} failed ({os.waitstatus_to_exitcode(status)})")
    return (wall, b"".join(chunks).decode(), usage.ru_maxrss * 1024, usage.ru_inblock * 512,
            usage.ru_utime + usage.ru_stime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--gib", type=float, default=2.5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1, help="untimed rounds of every reader before each case")
    parser.add_argument("--tensors", choices=sorted(TENSOR_SETS), default="mixed")
    parser.add_argument("--tessera-mode", action="append", metavar="LABEL=ARGS",
                        help="a tessera reader: its label and extra arguments for tessera load, "
                             "environment settings NAME=VALUE first (repeatable; default: 'tessera=', "
                             "'tessera+sha256=--sha256', 'tessera-gap0=--gap-bytes 0' and "
                             "'tessera-pread=TESSERA_LOAD_IO=pread')")
    parser.add_argument("--staging-bytes", type=int, default=64 << 20,
                        help="the loader's staging budget, for the RSS check")
    parser.add_argument("--keep", action="store_true", help="keep the checkpoint for another run")
    args = parser.parse_args()

    modes = [m.split("=", 1) for m in (args.tessera_mode or ["tessera=", "tessera+sha256=--sha256",
                                                                "tessera-gap0=--gap-bytes 0",
                                                                "tessera-pread=TESSERA_LOAD_IO=pread"])]
    labels = [label for label, _ in modes]
    os.makedirs(args.work, exist_ok=True)
    path = os.path.join(args.work, f"load_compare_{args.tensors}.safetensors")
    tensors = tensor_list(args.gib, args.tensors)
    data_bytes = sum(s[0] * s[1] * i for _, _, i, s in tensors)
    if not opens_as(sys.executable, path, tensors):  # a checkpoint kept by --keep is reused
        print(f"writing {path}: {len(tensors)} tensors, {data_bytes / 2**30:.2f} GiB", flush=True)
        write_checkpoint(path, tensors)
        if not opens_as(sys.executable, path, tensors):
            sys.exit(f"the safetensors package does not read {path} as written")
    for layout, text in RULES.items():
        with open(os.path.join(args.work, f"{layout}.rules"), "w") as f:
            f.write(text)

    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start; "
          f"{args.runs} runs per reader, page cache dropped before each", flush=True)
    print(f"{'case':<12} {'reader':<15} {'median s':>9} {'min s':>6} {'max s':>6} {'GB/s':>6} {'read GiB':>9} "
          f"{'disk GiB':>9} {'CPU s':>6} {'peak RSS MiB':>13}")
    failures = []
    for layout in RULES:
        for process in range(PROCESSES):
            boxes, shard_bytes = process_boxes(tensors, layout, process)
            rules = os.path.join(args.work, f"{layout}.rules")
            load = [args.tessera, "load", "--checkpoint", path, "--mesh", MESH, "--rules", rules,
                    "--process", str(process), "--num-processes", str(PROCESSES)]
            readers = {label: with_environment(load, shlex.split(extra)) for label, extra in modes}
            readers.update({
                "get_slice": [sys.executable, "-c", GET_SLICE, path, json.dumps(boxes)],
                "sequential": [sys.executable, "-c", SEQUENTIAL, path, str(shard_bytes)],
            })
            times = {r: [] for r in readers}
            disk = {r: [] for r in readers}
            cpu = {r: [] for r in readers}
            rss = {r: 0 for r in readers}
            read = {}
            resident = []
            names = list(readers)
            for _ in range(args.warmup):
                for reader in names:
                    drop_cache(path)
                    run_measured(readers[reader])
            for run in range(args.runs):
                for reader in names[run % len(names):] + names[:run % len(names)]:
                    command = readers[reader]
                    drop_cache(path)
                    resident.append(resident_share(path))
                    wall, out, peak, inblock, seconds = run_measured(command)
                    rss[reader] = max(rss[reader], peak)
                    disk[reader].append(inblock)
                    cpu[reader].append(seconds)
                    if reader in labels:
                        times[reader].append(wall)
                        last = out.strip().splitlines()[-1] if out.strip() else ""
                        read[reader] = int(last.split()[1]) if last.startswith("read ") else None
                    else:
                        inside, count = out.split()
                        times[reader].append(float(inside))
                        read[reader] = int(count)
            case = f"{layout} P={process}"
            medians = {r: statistics.median(t) for r, t in times.items()}
            for reader in readers:
                got = read[reader]
                print(f"{case:<12} {reader:<15} {medians[reader]:>9.3f} {min(times[reader]):>6.2f} "
                      f"{max(times[reader]):>6.2f} {shard_bytes / medians[reader] / 1e9:>6.2f} "
                      f"{'?' if got is None else f'{got / 2**30:.3f}':>9} "
                      f"{statistics.median(disk[reader]) / 2**30:>9.3f} {statistics.median(cpu[reader]):>6.2f} "
                      f"{rss[reader] / 2**20:>13.1f}")
            budget = shard_bytes + args.staging_bytes
            print(f"{case:<12} shard bytes {shard_bytes / 2**30:.3f} GiB, shard bytes + staging "
                  f"{budget / 2**20:.0f} MiB; file pages resident after the drops <= {max(resident):.1%}; "
                  f"load average {os.getloadavg()[0]:.2f}")
            for label in labels:
                vs_sequential = medians["sequential"] / medians[label]
                vs_get_slice = medians["get_slice"] / medians[label]
                target = 1 if layout == "rows" else 2
                print(f"{case:<12} {label}: /sequential throughput {vs_sequential:.2f}x (target >= 0.9), "
                      f"get_slice/{label} time {vs_get_slice:.2f}x (target >= {target}), peak RSS "
                      f"{rss[label] / 2**20:.0f} MiB (target <= {budget / 2**20:.0f})", flush=True)
                if vs_sequential < 0.9:
                    failures.append(f"{case} {label}: /sequential {vs_sequential:.2f}x < 0.9")
                if vs_get_slice < target:
                    failures.append(f"{case} {label}: get_slice/{label} {vs_get_slice:.2f}x < {target}")
                if rss[label] > budget:
                    failures.append(f"{case} {label}: peak RSS {rss[label]} > {budget}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for failure in failures:
        print(f"MISSED {failure}")
    if not args.keep:
        os.remove(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
