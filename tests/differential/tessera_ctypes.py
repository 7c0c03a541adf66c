# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0

"""libtessera through ctypes for the differential comparisons: the functions
a comparison declares, and calls that raise TesseraError when they fail."""
import ctypes as C


class TesseraError(RuntimeError):
    """A failed call: str() is "function: message"; .message is Tessera's."""

    def __init__(self, function, message):
        super().__init__(f"{function}: {message}")
        self.message = message


class Library:
    """Loads `path` and types the functions `signatures` names
    ({name: (result type, [argument types])})."""

    def __init__(self, path, signatures):
        lib = C.CDLL(path)
        signatures = dict(signatures)
        signatures.setdefault("tessera_error_message", (C.c_char_p, [C.c_void_p]))
        signatures.setdefault("tessera_error_destroy", (None, [C.c_void_p]))
        for name, (res, args) in signatures.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        self.lib = lib

    def call(self, name, *args):
        """`name`(*args, &error); raises TesseraError on failure."""
        err = C.c_void_p()
        out = getattr(self.lib, name)(*args, C.byref(err))
        if err.value:
            message = self.lib.tessera_error_message(err).decode()
            self.lib.tessera_error_destroy(err)
            raise TesseraError(name, message)
        return out
