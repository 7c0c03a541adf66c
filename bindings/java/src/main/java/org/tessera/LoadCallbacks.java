// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * One load's callbacks as the JNI trampolines call them on the loader
 * threads: the first exception cancels the load and is thrown by execute
 * (NativeCallbacks).
 */
final class LoadCallbacks extends NativeCallbacks {
  private final PieceConsumer consumer;
  private final LoadProgress progress;

  LoadCallbacks(PieceConsumer consumer, LoadProgress progress) {
    this.consumer = consumer;
    this.progress = progress;
  }

  boolean piece(long piece, long offset, java.nio.ByteBuffer bytes) {
    try {
      return consumer.accept(piece, offset, bytes.asReadOnlyBuffer());
    } catch (Throwable t) {
      keep(t);
      return false;
    }
  }

  boolean progress(long bytesDone, long bytesTotal) {
    try {
      return progress.update(bytesDone, bytesTotal);
    } catch (Throwable t) {
      keep(t);
      return false;
    }
  }
}
