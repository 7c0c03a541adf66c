// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.nio.charset.StandardCharsets;

/**
 * Strings cross JNI as UTF-8 byte arrays (NUL-terminated by the JNI side): JNI's own string
 * functions use "modified UTF-8", which encodes characters outside the BMP
 * and NUL differently from the UTF-8 the C library reads and writes.
 */
final class Utf8 {
  private Utf8() {}

  /** `text` as UTF-8 (the JNI side adds the NUL); null stays null. */
  static byte[] encode(String text) {
    if (text == null) return null;
    int nul = text.indexOf('\0');
    if (nul >= 0) {
      throw new TesseraException(
          Code.INVALID_ARGUMENT,
          "Argument strings must not contain NUL, got one at index " + nul);
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Each string encoded; null entries (and a null array) stay null. */
  static byte[][] encodeAll(String[] texts) {
    if (texts == null) return null;
    byte[][] encoded = new byte[texts.length][];
    for (int i = 0; i < texts.length; ++i) encoded[i] = encode(texts[i]);
    return encoded;
  }

  /** UTF-8 bytes (no terminator) as a String; null stays null. */
  static String decode(byte[] utf8) {
    return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
  }
}
