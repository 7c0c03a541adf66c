// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * One load's callbacks as the JNI trampolines call them on the loader
 * threads: nothing may propagate into those threads, so the first exception
 * is kept, the load cancelled, and the exception thrown by execute.
 */
final class LoadCallbacks {
  private final PieceConsumer consumer;
  private final LoadProgress progress;
  private Throwable thrown;

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

  private synchronized void keep(Throwable t) {
    if (thrown == null) thrown = t;
  }

  /** The load failed with `failure`: a callback's exception, if one threw, comes first. */
  synchronized RuntimeException rethrow(RuntimeException failure) {
    if (thrown == null) return failure;
    thrown.addSuppressed(failure);
    if (thrown instanceof RuntimeException) return (RuntimeException) thrown;
    if (thrown instanceof Error) throw (Error) thrown;
    return new RuntimeException(thrown);
  }
}
