# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Randomized round trips of sharded checkpoints (issue 13): save random
tensors under layout A on mesh M with N processes (real forked processes;
half the pairs through libtessera's save, checkpoint_save.h, the others
through the independent writer sharded_writer), restore them through libtessera under layout B on mesh
M' with N' processes (each a real forked process, restore_lib), and compare
every restored shard with numpy's slice of the original array, byte for
byte. Layouts include uneven (chunk-flat) splits, replicated dimensions,
axis groups and groups against mesh order.

Per restoring process it also checks the bytes read: the loader's count,
the kernel's count (rchar of /proc/self/io around the execution) and the
plan's total must be equal, and (with a coalescing gap of 0) equal to the
brute-force count of the elements of the distinct boxes the process needs
times the element size (the overlaps of those boxes with the stored
pieces tile them).

Usage: restore_round_trips.py --lib libtessera.so --pairs 300 --seed 13
Prints a summary line; exits 1 on any difference.
"""
import argparse
import itertools
import json
import math
import os
import random
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import restore_lib  # noqa: E402
import sharded_writer as sw  # noqa: E402

DTYPES = [np.float32, np.float16, np.int8, np.int64, np.uint8]


def random_mesh(rng):
    devices = rng.choice([1, 2, 4, 6, 8])
    sizes = []
    left = devices
    while left > 1:
        f = rng.choice([d for d in range(2, left + 1) if left % d == 0])
        sizes.append(f)
        left //= f
    if not sizes or rng.random() < 0.3:
        sizes.insert(rng.randrange(len(sizes) + 1), 1)
    return sw.Mesh([(f"a{i}", n) for i, n in enumerate(sizes)])


def random_layout(rng, mesh, shape, strict):
    unused = list(mesh.names)
    layout = []
    for n in shape:
        group = []
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            if not unused:
                break
            a = rng.choice(unused)
            if strict and n % (sw.shards_of(group + [a], mesh)) != 0:
                continue
            unused.remove(a)
            group.append(a)
        layout.append(tuple(group))
    return layout


def random_processes(rng, devices):
    return rng.choice([p for p in (1, 2, 3, 4, 6, 8) if devices % p == 0])


def check_restore(lib, directory, arrays, mesh, rules, mode, process, num_processes):
    """0 when the process restores every shard exactly and reads the
    overlap; else prints what differs and returns 1."""
    pieces, total, read, kernel = restore_lib.restore(lib, directory, mesh, rules, mode, process, num_processes)
    names = list(arrays)
    failures = 0
    expected_bytes = 0
    seen = set()
    per = mesh.size // num_processes
    for device, tensor, ranges, data in pieces:
        name = names[tensor]
        array = arrays[name]
        layout = rules.get(name, tuple(() for _ in array.shape))
        expected = sw.box(layout, mesh, array.shape, mode, device)
        if [tuple(r) for r in ranges] != [tuple(r) for r in expected]:
            print(f"{name} device {device}: box {ranges}, expected {expected}")
            failures += 1
        want = np.ascontiguousarray(array[tuple(slice(s, e) for s, e in expected)]).tobytes()
        if data != want:
            diff = sum(a != b for a, b in zip(data, want)) + abs(len(data) - len(want))
            print(f"{name} device {device} box {expected}: {diff} bytes differ")
            failures += 1
        key = (name, tuple(expected))
        if key not in seen:
            seen.add(key)
            expected_bytes += math.prod(e - s for s, e in expected) * array.itemsize
    # The one read beside the files a process may make while loading: the
    # processor list, once, on the first lock contention (absl's NumCPUs).
    with open("/sys/devices/system/cpu/online", "rb") as f:
        cpu_list = len(f.read())
    if not (total == read == expected_bytes and kernel in (read, read + cpu_list)):
        print(f"process {process}/{num_processes} of {per} devices: plan {total} bytes, loader read {read}, "
              f"kernel read {kernel}, brute-force overlap {expected_bytes}")
        failures += 1
    return failures


def run_forked(jobs):
    """Runs each job (a function returning a failure count) in its own process."""
    children = []
    for job in jobs:
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                code = min(job(), 2)
            except Exception as e:  # the child reports, the parent counts it
                print(f"restoring process failed: {e}", flush=True)
                code = 2
            finally:
                sys.stdout.flush()
                os._exit(code)
        children.append(pid)
    failures = 0
    for pid in children:
        _, status = os.waitpid(pid, 0)
        failures += status != 0
    return failures


def one_pair(lib, rng, root, pair):
    directory = os.path.join(root, f"pair{pair}")
    os.mkdir(directory)
    mesh_a, mesh_b = random_mesh(rng), random_mesh(rng)
    arrays, saved = {}, []
    mode_b = rng.choice(["strict", "chunk-flat"])
    # Odd pairs save through the C ABI (checkpoint_save.h: one shard mode per
    # save), even ones through the independent Python writer.
    via_c = pair % 2 == 1
    mode_c = rng.choice(["strict", "chunk-flat"])
    rules_b = {}
    for t in range(rng.randint(1, 3)):
        rank = rng.choice([0, 1, 2, 2, 3])
        shape = tuple(rng.randint(1, 12) for _ in range(rank))
        dtype = rng.choice(DTYPES)
        array = (np.random.default_rng(rng.randrange(1 << 30)).integers(-100, 100, size=shape)).astype(dtype)
        name = f"t{t}"
        arrays[name] = array
        mode_a = mode_c if via_c else rng.choice(["strict", "chunk-flat"])
        saved.append((name, array, mesh_a, random_layout(rng, mesh_a, shape, mode_a == "strict"), mode_a))
        if rng.random() < 0.85:
            rules_b[name] = random_layout(rng, mesh_b, shape, mode_b == "strict")
    num_a = random_processes(rng, mesh_a.size)
    num_b = random_processes(rng, mesh_b.size)
    if via_c:
        tensors = [(n, a, m, l) for n, a, m, l, _ in saved]
        # Processes 1..N-1 write first; process 0 writes, then finishes (the index).
        save_failures = run_forked([lambda p=p: restore_lib.save_process(lib, directory, tensors, mode_c, p, num_a,
                                                                         False) or 0 for p in range(1, num_a)])
        save_failures += run_forked([lambda: restore_lib.save_process(lib, directory, tensors, mode_c, 0, num_a,
                                                                      True) or 0])
        if save_failures:
            print(f"pair {pair}: {save_failures} saving processes failed")
    else:
        sw.save(directory, saved, num_a)
    failures = run_forked([lambda p=p: check_restore(lib, directory, arrays, mesh_b, rules_b, mode_b, p, num_b)
                           for p in range(num_b)])
    if failures:
        print(f"pair {pair}: save {[(n, l, m) for n, _, _, l, m in saved]} on {mesh_a.spec()} by {num_a}, "
              f"restore {rules_b} {mode_b} on {mesh_b.spec()} by {num_b}: {failures} processes failed")
    shutil.rmtree(directory)
    kinds = {"uneven": any(m == "chunk-flat" and any(n % sw.shards_of(g, mesh_a) for g, n in zip(l, a.shape))
                           for _, a, _, l, m in saved),
             "grouped": any(len(g) > 1 for _, _, _, l, _ in saved for g in l) or
                        any(len(g) > 1 for l in rules_b.values() for g in l),
             "replicated dims": any(not g for _, _, _, l, _ in saved for g in l)}
    return failures, num_a, num_b, kinds, via_c


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    lib = restore_lib.load(args.lib)
    rng = random.Random(args.seed)
    root = tempfile.mkdtemp(prefix="tessera_round_trips_")
    failed = 0
    counts = {"uneven": 0, "grouped": 0, "replicated dims": 0}
    processes = set()
    saved_by_c = 0
    try:
        for pair in range(args.pairs):
            failures, num_a, num_b, kinds, via_c = one_pair(lib, rng, root, pair)
            saved_by_c += via_c
            failed += failures > 0
            processes.add((num_a, num_b))
            for k, v in kinds.items():
                counts[k] += v
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.pairs - failed} of {args.pairs} (A, M, B, M') pairs restored exactly "
          f"({saved_by_c} saved through the C ABI, the others by the Python writer; {counts['uneven']} uneven, {counts['grouped']} with axis groups, {counts['replicated dims']} with "
          f"replicated dimensions; {len(processes)} (saving, restoring) process counts)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
