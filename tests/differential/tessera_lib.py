# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""libtessera through ctypes for the differential scripts that run in the jax
virtual environment: the C signatures they call, declared once, and the few
steps every script repeats (an error's message, a mesh over CPU devices, a
text buffer)."""
import ctypes as C
import math

_P = C.c_void_p
_ERR = C.POINTER(C.c_void_p)
_I64S = C.POINTER(C.c_int64)
_STRS = C.POINTER(C.c_char_p)

SIGNATURES = {
    "tessera_error_message": (C.c_char_p, [_P]),
    "tessera_error_destroy": (None, [_P]),
    "tessera_buffer_data": (C.c_char_p, [_P]),
    "tessera_buffer_destroy": (None, [_P]),
    "tessera_mesh_options_create": (_P, []),
    "tessera_mesh_options_destroy": (None, [_P]),
    "tessera_mesh_options_set_devices": (C.c_bool, [_P, _STRS, C.c_size_t, _ERR]),
    "tessera_mesh_options_set_device_kind": (C.c_bool, [_P, C.c_char_p, _ERR]),
    "tessera_mesh_options_set_allow_split_physical_axes": (C.c_bool, [_P, C.c_bool, _ERR]),
    "tessera_mesh_options_set_contiguous_submeshes": (C.c_bool, [_P, C.c_bool, _ERR]),
    "tessera_mesh_create": (_P, [_I64S, _STRS, C.c_size_t, _P, _ERR]),
    "tessera_mesh_make": (_P, [_I64S, _STRS, C.c_size_t, _P, _ERR]),
    "tessera_mesh_create_device_mesh": (_P, [_I64S, _STRS, C.c_size_t, _P, _ERR]),
    "tessera_mesh_tpu_axis_assignment": (C.c_size_t, [_I64S, C.c_size_t, _I64S, C.c_size_t, _P, _I64S,
                                                      C.c_size_t, _ERR]),
    "tessera_mesh_num_devices": (C.c_size_t, [_P, _P]),
    "tessera_mesh_device": (_P, [_P, C.c_size_t, _ERR]),
    "tessera_mesh_destroy": (None, [_P]),
    "tessera_device_id": (C.c_int64, [_P, _P]),
    "tessera_device_destroy": (None, [_P]),
    "tessera_layout_from_partition_spec": (_P, [C.c_char_p, _P, C.c_size_t, _ERR]),
    "tessera_layout_destroy": (None, [_P]),
    "tessera_hlo_sharding_parse": (_P, [C.c_char_p, _ERR]),
    "tessera_hlo_sharding_to_text": (_P, [_P, _ERR]),
    "tessera_hlo_sharding_destroy": (None, [_P]),
    "tessera_hlo_sharding_from_layout": (_P, [_P, C.c_size_t, _STRS, C.c_size_t, _ERR]),
}


def load(path):
    lib = C.CDLL(path)
    for name, (res, args) in SIGNATURES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def int64s(values):
    return (C.c_int64 * len(values))(*values)


def strings(values):
    return (C.c_char_p * max(len(values), 1))(*[v.encode() for v in values])


def take_error(lib, err):
    """The message of `err` (a c_void_p filled by a failed call), freed."""
    message = lib.tessera_error_message(err).decode()
    lib.tessera_error_destroy(err)
    return message


def take_text(lib, buffer):
    text = lib.tessera_buffer_data(buffer).decode()
    lib.tessera_buffer_destroy(buffer)
    return text


def cpu_mesh(lib, shape, names):
    """tessera_mesh_create over cpu:0..n-1, row-major; NULL on error."""
    n = math.prod(shape)
    options = lib.tessera_mesh_options_create()
    lib.tessera_mesh_options_set_devices(options, strings([f"cpu:{i}" for i in range(n)]), n, None)
    mesh = lib.tessera_mesh_create(int64s(shape), strings(names), len(shape), options, None)
    lib.tessera_mesh_options_destroy(options)
    return mesh


def device_ids(lib, mesh):
    """The mesh's device ids in mesh order."""
    ids = []
    for i in range(lib.tessera_mesh_num_devices(mesh, None)):
        d = lib.tessera_mesh_device(mesh, i, None)
        ids.append(lib.tessera_device_id(d, None))
        lib.tessera_device_destroy(d)
    return ids
