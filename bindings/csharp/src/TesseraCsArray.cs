// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The C layout of tessera_swig_int64s and tessera_swig_bytes
// ({pointer, size_t}), returned by value from the native wrapper.
using System;
using System.Runtime.InteropServices;

namespace Tessera {

[StructLayout(LayoutKind.Sequential)]
internal struct TesseraCsArray {
  public IntPtr data;
  public long size;
}

}
