// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Typed arrays as the bytes the library copies: elements in the platform's byte order. */
final class HostArrays {
  private HostArrays() {}

  static byte[] bytes(float[] values) {
    ByteBuffer buffer = ByteBuffer.allocate(Math.multiplyExact(values.length, Float.BYTES));
    buffer.order(ByteOrder.nativeOrder()).asFloatBuffer().put(values);
    return buffer.array();
  }

  static byte[] bytes(long[] values) {
    ByteBuffer buffer = ByteBuffer.allocate(Math.multiplyExact(values.length, Long.BYTES));
    buffer.order(ByteOrder.nativeOrder()).asLongBuffer().put(values);
    return buffer.array();
  }

  static float[] floats(byte[] bytes) {
    float[] values = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asFloatBuffer().get(values);
    return values;
  }

  static long[] longs(byte[] bytes) {
    long[] values = new long[bytes.length / Long.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asLongBuffer().get(values);
    return values;
  }

  static byte[][] bytes(float[][] shards) {
    if (shards == null) return null;
    byte[][] out = new byte[shards.length][];
    for (int i = 0; i < shards.length; ++i) out[i] = shards[i] == null ? null : bytes(shards[i]);
    return out;
  }

  static byte[][] bytes(long[][] shards) {
    if (shards == null) return null;
    byte[][] out = new byte[shards.length][];
    for (int i = 0; i < shards.length; ++i) out[i] = shards[i] == null ? null : bytes(shards[i]);
    return out;
  }
}
