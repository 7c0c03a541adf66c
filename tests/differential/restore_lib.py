# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""Restoring sharded checkpoints through libtessera's C ABI (ctypes), shared
by the round-trip and jax tests: one process's restore into buffers, with
the bytes read counted twice (the loader's count and the kernel's rchar)."""
import os
import ctypes as C
import json

from tessera_ctypes import Library

_P = C.c_void_p
_ERR = C.POINTER(C.c_void_p)
_I64S = C.POINTER(C.c_int64)

SIGNATURES = {
    "tessera_layout_map_from_json": (_P, [C.c_char_p, _ERR]),
    "tessera_layout_map_destroy": (None, [_P]),
    "tessera_checkpoint_index_open": (_P, [C.c_char_p, _ERR]),
    "tessera_checkpoint_index_destroy": (None, [_P]),
    "tessera_read_options_create": (_P, []),
    "tessera_read_options_destroy": (None, [_P]),
    "tessera_read_options_set_process": (C.c_bool, [_P, C.c_size_t, C.c_size_t, _ERR]),
    "tessera_read_options_set_shard_mode": (C.c_bool, [_P, C.c_int, _ERR]),
    "tessera_read_options_set_coalesce_gap": (C.c_bool, [_P, C.c_int64, _ERR]),
    "tessera_read_options_set_threads": (C.c_bool, [_P, C.c_size_t, _ERR]),
    "tessera_restore_plan_create": (_P, [_P, _P, _P, _P, _ERR]),
    "tessera_read_plan_destroy": (None, [_P]),
    "tessera_read_plan_num_pieces": (C.c_size_t, [_P, _ERR]),
    "tessera_read_plan_piece_device": (C.c_size_t, [_P, C.c_size_t, _ERR]),
    "tessera_read_plan_piece_tensor": (C.c_size_t, [_P, C.c_size_t, _ERR]),
    "tessera_read_plan_piece_ranges": (C.c_size_t, [_P, C.c_size_t, _I64S, C.c_size_t, _ERR]),
    "tessera_read_plan_piece_size": (C.c_int64, [_P, C.c_size_t, _ERR]),
    "tessera_read_plan_total_bytes": (C.c_int64, [_P, _ERR]),
    "tessera_read_plan_execute": (C.c_bool, [_P, C.POINTER(_P), C.POINTER(C.c_size_t), C.c_size_t, _P, _P,
                                             C.POINTER(C.c_int64), _ERR]),
}
SAVE_SIGNATURES = {
    "tessera_layout_from_json": (_P, [C.c_char_p, _ERR]),
    "tessera_layout_destroy": (None, [_P]),
    "tessera_save_options_create": (_P, []),
    "tessera_save_options_destroy": (None, [_P]),
    "tessera_save_options_set_process": (C.c_bool, [_P, C.c_size_t, C.c_size_t, _ERR]),
    "tessera_save_options_set_shard_mode": (C.c_bool, [_P, C.c_int, _ERR]),
    "tessera_checkpoint_saver_create": (_P, [C.c_char_p, _P, _ERR]),
    "tessera_checkpoint_saver_destroy": (None, [_P]),
    "tessera_checkpoint_saver_add_tensor": (C.c_bool, [_P, C.c_char_p, C.c_char_p, _P, _I64S, C.c_size_t, _ERR]),
    "tessera_checkpoint_saver_set_shard": (C.c_bool, [_P, C.c_size_t, C.c_size_t, C.c_void_p, C.c_size_t, _ERR]),
    "tessera_checkpoint_saver_write": (C.c_bool, [_P, _ERR]),
    "tessera_checkpoint_saver_finish": (C.c_bool, [_P, _ERR]),
}
SIGNATURES.update(SAVE_SIGNATURES)
MODES = {"strict": 0, "chunk-flat": 1, "chunk-nested": 2}


def load(path):
    return Library(path, SIGNATURES)


def layout_map_json(mesh, rules):
    """rules: {tensor name: layout (one tuple of axes per dimension)}; full-name keys."""
    return json.dumps({"mesh": mesh.json(), "match": "KEY_MATCH_FULL",
                       "rules": [{"key": name, "layout": {"dims": [{"axes": list(g)} if g else {} for g in layout]}}
                                 for name, layout in rules.items()]})


def save_process(lib, directory, tensors, mode, process, num_processes, finish):
    """One process of a save through the C ABI (checkpoint_save.h):
    tensors [(name, array, mesh, layout)] under one shard mode, each device's
    shard handed as a buffer; with `finish` (process 0, once every other
    process wrote) it then writes the index."""
    import numpy as np
    import sharded_writer as sw
    options = lib.lib.tessera_save_options_create()
    lib.call("tessera_save_options_set_process", options, process, num_processes)
    lib.call("tessera_save_options_set_shard_mode", options, MODES[mode])
    saver = lib.call("tessera_checkpoint_saver_create", directory.encode(), options)
    keep = []
    try:
        for t, (name, array, mesh, layout) in enumerate(tensors):
            layout_handle = lib.call("tessera_layout_from_json", json.dumps(sw.layout_json(layout, mesh)).encode())
            dims = (C.c_int64 * max(array.ndim, 1))(*array.shape)
            lib.call("tessera_checkpoint_saver_add_tensor", saver, name.encode(), sw.DTYPES[array.dtype].encode(),
                     layout_handle, dims, array.ndim)
            lib.lib.tessera_layout_destroy(layout_handle)
            per = mesh.size // num_processes
            for device in range(process * per, (process + 1) * per):
                box = sw.box(layout, mesh, array.shape, mode, device)
                shard = np.array(array[tuple(slice(s, e) for s, e in box)], order="C")
                keep.append(shard)
                lib.call("tessera_checkpoint_saver_set_shard", saver, t, device, shard.ctypes.data, shard.nbytes)
        lib.call("tessera_checkpoint_saver_write", saver)
        if finish:
            lib.call("tessera_checkpoint_saver_finish", saver)
    finally:
        lib.lib.tessera_checkpoint_saver_destroy(saver)
        lib.lib.tessera_save_options_destroy(options)


def rchar():
    """(rchar, bytes this read of /proc/self/io adds to it afterwards)."""
    with open("/proc/self/io", "rb") as f:
        text = f.read()
    for line in text.decode().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1]), len(text)
    raise RuntimeError("no rchar in /proc/self/io")


def restore(lib, directory, mesh, rules, mode, process, num_processes, gap=0):
    """[(device, tensor position, ranges, bytes)] of the process, the plan's
    total bytes, the loader's bytes read and the kernel's bytes read."""
    layout_map = lib.call("tessera_layout_map_from_json", layout_map_json(mesh, rules).encode())
    index = lib.call("tessera_checkpoint_index_open", directory.encode())
    options = lib.lib.tessera_read_options_create()
    plan = None
    try:
        lib.call("tessera_read_options_set_process", options, process, num_processes)
        lib.call("tessera_read_options_set_shard_mode", options, MODES[mode])
        lib.call("tessera_read_options_set_coalesce_gap", options, gap)
        # A set thread count: the default asks glibc for the processors, which
        # reads /sys/devices/system/cpu/online and would count in rchar.
        lib.call("tessera_read_options_set_threads", options, 2)
        plan = lib.call("tessera_restore_plan_create", index, layout_map, None, options)
        n = lib.call("tessera_read_plan_num_pieces", plan)
        sizes = [lib.call("tessera_read_plan_piece_size", plan, i) for i in range(n)]
        buffers = [C.create_string_buffer(max(s, 1)) for s in sizes]
        pointers = (_P * n)(*[C.cast(b, _P) for b in buffers])
        csizes = (C.c_size_t * n)(*sizes)
        read = C.c_int64(0)
        # The kernel's rchar counts read(2) and pread(2), not io_uring's
        # reads: this load takes the pread path (the loader reads the
        # variable at every load).
        os.environ["TESSERA_LOAD_IO"] = "pread"
        # Reading /proc/self/io counts in rchar too, after the value it shows.
        before, own = rchar()
        lib.call("tessera_read_plan_execute", plan, pointers, csizes, n, None, None, C.byref(read))
        kernel = rchar()[0] - before - own
        total = lib.call("tessera_read_plan_total_bytes", plan)
        pieces = []
        for i in range(n):
            out = (C.c_int64 * 16)()
            count = lib.call("tessera_read_plan_piece_ranges", plan, i, out, 16)
            ranges = [(out[j], out[j + 1]) for j in range(0, count, 2)]
            pieces.append((lib.call("tessera_read_plan_piece_device", plan, i),
                           lib.call("tessera_read_plan_piece_tensor", plan, i), ranges, buffers[i].raw[:sizes[i]]))
        return pieces, total, read.value, kernel
    finally:
        if plan:
            lib.lib.tessera_read_plan_destroy(plan)
        lib.lib.tessera_read_options_destroy(options)
        lib.lib.tessera_checkpoint_index_destroy(index)
        lib.lib.tessera_layout_map_destroy(layout_map)
