// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Gives a streamed save its bytes (see {@link CheckpointSaver#stream(ShardFill)}):
 * fill all of {@code out} (its capacity, from position 0; little-endian order
 * set) with the bytes at {@code offset} of the shard of tensor {@code tensor}
 * on device {@code device}, whose box is {@code ranges} ([start0, stop0,
 * start1, stop1, ...]) as row-major bytes. {@code out} is valid only during
 * the call. It is asked for each piece the process stores, in parts of at
 * most the options' chunk size, in file order, on the thread that called
 * stream. Returning false cancels the save; so does an exception, which
 * stream then throws.
 */
@FunctionalInterface
public interface ShardFill {
  boolean fill(long tensor, long device, long[] ranges, long offset, java.nio.ByteBuffer out);
}
