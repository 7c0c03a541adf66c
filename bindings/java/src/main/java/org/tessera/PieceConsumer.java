// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Receives a read plan's bytes in parts (see {@link ReadPlan#execute(PieceConsumer, LoadProgress)}):
 * {@code bytes} (read-only, valid only during the call: copy what you keep) are
 * the bytes at {@code offset} of piece {@code piece}'s shard. It runs on the
 * loader threads, possibly several at once (for different bytes). Returning
 * false cancels the load; so does an exception, which execute then throws.
 */
@FunctionalInterface
public interface PieceConsumer {
  boolean accept(long piece, long offset, java.nio.ByteBuffer bytes);
}
