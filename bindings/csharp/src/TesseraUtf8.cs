// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Strings as NUL-terminated UTF-8 (see tessera_csharp.i): arguments encoded
// here, and the borrowed C strings that P/Invoke must not free (it would:
// a `string` return is freed by the marshaller) decoded here.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Tessera {

internal static class TesseraUtf8 {
  internal static byte[] Encode(string value) {
    if (value == null) return null;
    byte[] bytes = new byte[Encoding.UTF8.GetMaxByteCount(value.Length) + 1];
    int length = Encoding.UTF8.GetBytes(value, 0, value.Length, bytes, 0);
    bytes[length] = 0;
    return bytes;
  }

  /* A borrowed NUL-terminated UTF-8 string; null for NULL. */
  internal static string Decode(IntPtr text) {
    if (text == IntPtr.Zero) return null;
    int length = 0;
    while (Marshal.ReadByte(text, length) != 0) length++;
    return Decode(text, length);
  }

  /* `size` borrowed UTF-8 bytes. */
  internal static string Decode(IntPtr text, long size) {
    if (text == IntPtr.Zero || size <= 0) return text == IntPtr.Zero ? null : "";
    byte[] bytes = new byte[size];
    Marshal.Copy(text, bytes, 0, checked((int)size));
    return Encoding.UTF8.GetString(bytes);
  }
}

}
