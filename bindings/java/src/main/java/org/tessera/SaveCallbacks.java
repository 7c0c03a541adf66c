// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * One streamed save's fill as the JNI trampoline calls it: the first
 * exception cancels the save and is thrown by CheckpointSaver.stream
 * (NativeCallbacks).
 */
final class SaveCallbacks extends NativeCallbacks {
  private final ShardFill fill;

  SaveCallbacks(ShardFill fill) {
    this.fill = fill;
  }

  boolean fill(long tensor, long device, long[] ranges, long offset, java.nio.ByteBuffer out) {
    try {
      // Safetensors stores elements little-endian: putFloat and the like write them so.
      return fill.fill(tensor, device, ranges, offset, out.order(java.nio.ByteOrder.LITTLE_ENDIAN));
    } catch (Throwable t) {
      keep(t);
      return false;
    }
  }
}
