# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Randomized round trips of sharded checkpoints (issue 13): save random
tensors under layout A on mesh M with N processes (real forked processes;
half the pairs through libtessera's save, checkpoint_save.h, the others
through the independent writer sharded_writer), restore them through libtessera under layout B on mesh
M' with N' processes (each a real forked process, restore_lib), and compare
every restored shard with numpy's slice of the original array, byte for
byte. Both sides use the three shard modes (strict, chunk-flat and
chunk-nested, the writer's chunk-nested written from PyTorch's placements,
not from Tessera's code); layouts include uneven splits, replicated
dimensions, axis groups and groups against mesh order. Before the pairs,
the writer's chunk-nested boxes are checked against libtessera's
(tessera_sharding_create) on every group of small meshes, refusals
included, so the two sides agree on what they test.

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
import ctypes as C
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
from tessera_ctypes import Library  # noqa: E402

DTYPES = [np.float32, np.float16, np.int8, np.int64, np.uint8]
MODES = ["strict", "chunk-flat", "chunk-nested"]
SHARD_SIGNATURES = {
    "tessera_sharding_create": (C.c_void_p, [C.c_void_p, C.POINTER(C.c_int64), C.c_size_t, C.c_int,
                                             C.POINTER(C.c_void_p)]),
    "tessera_sharding_destroy": (None, [C.c_void_p]),
    "tessera_sharding_device_ranges": (C.c_size_t, [C.c_void_p, C.c_size_t, C.POINTER(C.c_int64), C.c_size_t,
                                                    C.POINTER(C.c_void_p)]),
}


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


def random_layout(rng, mesh, shape, mode):
    """A layout `mode` can place: strict ones divide the sizes, chunk-nested
    ones give every device one range (drawn again until they do). Nested and
    flat chunking differ only for groups of axes, so chunk-nested draws more
    of them."""
    sizes = [0, 1, 2, 2] if mode == "chunk-nested" else [0, 0, 1, 1, 2]
    while True:
        unused = list(mesh.names)
        layout = []
        for n in shape:
            group = []
            for _ in range(rng.choice(sizes)):
                if not unused:
                    break
                a = rng.choice(unused)
                if mode == "strict" and n % (sw.shards_of(group + [a], mesh)) != 0:
                    continue
                unused.remove(a)
                group.append(a)
            layout.append(tuple(group))
        if mode != "chunk-nested" or sw.placeable(layout, mesh, shape, mode):
            return layout


def nested_differs(layout, mesh, shape):
    """Whether chunk-nested places some device differently from chunk-flat."""
    return any(sw.box(layout, mesh, shape, "chunk-nested", d) != sw.box(layout, mesh, shape, "chunk-flat", d)
               for d in range(mesh.size))


def check_nested_boxes(path):
    """The writer's chunk-nested boxes against libtessera's, for a rank-1
    tensor of every size 0..13 split over every ordered group of the axes of
    every mesh of 2 and 3 axes of sizes 1 to 3: (compared shardings,
    refused by both, differences)."""
    lib = Library(path, {**restore_lib.SAVE_SIGNATURES, **SHARD_SIGNATURES})
    compared = refused = differences = 0
    for rank in (2, 3):
        for sizes in itertools.product((1, 2, 3), repeat=rank):
            mesh = sw.Mesh([(f"a{i}", n) for i, n in enumerate(sizes)])
            groups = [g for k in range(rank + 1) for g in itertools.permutations(mesh.names, k)]
            for group in groups:
                layout_json = json.dumps(sw.layout_json([group], mesh)).encode()
                layout = lib.call("tessera_layout_from_json", layout_json)
                for n in range(14):
                    dims = (C.c_int64 * 1)(n)
                    err = C.c_void_p()
                    sharding = lib.lib.tessera_sharding_create(layout, dims, 1, restore_lib.MODES["chunk-nested"],
                                                               C.byref(err))
                    if err.value:
                        lib.lib.tessera_error_destroy(err)
                    placeable = sw.placeable([group], mesh, (n,), "chunk-nested")
                    compared += 1
                    if not sharding or not placeable:
                        refused += not sharding and not placeable
                        if bool(sharding) != placeable:
                            differences += 1
                            print(f"{group} on {mesh.spec()}, size {n}: libtessera "
                                  f"{'places' if sharding else 'refuses'} it, the writer "
                                  f"{'places' if placeable else 'refuses'} it")
                        if sharding:
                            lib.lib.tessera_sharding_destroy(sharding)
                        continue
                    out = (C.c_int64 * 2)()
                    for device in range(mesh.size):
                        lib.call("tessera_sharding_device_ranges", sharding, device, out, 2)
                        want = sw.box([group], mesh, (n,), "chunk-nested", device)[0]
                        if (out[0], out[1]) != want:
                            differences += 1
                            print(f"{group} on {mesh.spec()}, size {n}, device {device}: libtessera "
                                  f"[{out[0]}, {out[1]}), the writer {want}")
                    lib.lib.tessera_sharding_destroy(sharding)
                lib.lib.tessera_layout_destroy(layout)
    return compared, refused, differences


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
    mode_b = rng.choice(MODES)
    # Odd pairs save through the C ABI (checkpoint_save.h: one shard mode per
    # save), even ones through the independent Python writer.
    via_c = pair % 2 == 1
    mode_c = rng.choice(MODES)
    rules_b = {}
    for t in range(rng.randint(1, 3)):
        rank = rng.choice([0, 1, 2, 2, 3])
        shape = tuple(rng.randint(1, 12) for _ in range(rank))
        dtype = rng.choice(DTYPES)
        array = (np.random.default_rng(rng.randrange(1 << 30)).integers(-100, 100, size=shape)).astype(dtype)
        name = f"t{t}"
        arrays[name] = array
        mode_a = mode_c if via_c else rng.choice(MODES)
        saved.append((name, array, mesh_a, random_layout(rng, mesh_a, shape, mode_a), mode_a))
        if rng.random() < 0.85:
            rules_b[name] = random_layout(rng, mesh_b, shape, mode_b)
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
    shapes = {n: a.shape for n, a, _, _, _ in saved}
    kinds = {"uneven": any(m != "strict" and any(n % sw.shards_of(g, mesh_a) for g, n in zip(l, a.shape))
                           for _, a, _, l, m in saved),
             "chunk-nested saved": any(m == "chunk-nested" for _, _, _, _, m in saved),
             "chunk-nested restored": mode_b == "chunk-nested",
             "nested unlike flat": any(m == "chunk-nested" and nested_differs(l, mesh_a, a.shape)
                                       for _, a, _, l, m in saved) or
                                   (mode_b == "chunk-nested" and
                                    any(nested_differs(l, mesh_b, shapes[n]) for n, l in rules_b.items())),
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
    compared, refused, differences = check_nested_boxes(args.lib)
    print(f"chunk-nested boxes: {compared - differences} of {compared} small shardings agree with libtessera "
          f"({refused} refused by both)")
    if differences:
        return 1
    rng = random.Random(args.seed)
    root = tempfile.mkdtemp(prefix="tessera_round_trips_")
    failed = 0
    counts = {"uneven": 0, "grouped": 0, "replicated dims": 0, "chunk-nested saved": 0,
              "chunk-nested restored": 0, "nested unlike flat": 0}
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
          f"replicated dimensions; {len(processes)} (saving, restoring) process counts; chunk-nested saved in "
          f"{counts['chunk-nested saved']}, restored in {counts['chunk-nested restored']}, placing devices "
          f"unlike chunk-flat in {counts['nested unlike flat']})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
