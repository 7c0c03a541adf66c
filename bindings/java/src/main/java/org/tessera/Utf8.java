package org.tessera;

import java.nio.charset.StandardCharsets;

/**
 * Strings cross JNI as NUL-terminated UTF-8 byte arrays: JNI's own string
 * functions use "modified UTF-8", which encodes characters outside the BMP
 * and NUL differently from the UTF-8 the C library reads and writes.
 */
final class Utf8 {
  private Utf8() {}

  /** `text` as UTF-8 plus a NUL byte; null stays null. */
  static byte[] encode(String text) {
    if (text == null) return null;
    int nul = text.indexOf('\0');
    if (nul >= 0) {
      throw new TesseraException(
          Code.INVALID_ARGUMENT,
          "Argument strings must not contain NUL, got one at index " + nul);
    }
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] terminated = new byte[utf8.length + 1];
    System.arraycopy(utf8, 0, terminated, 0, utf8.length);
    return terminated;
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
