// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * One stored piece of a saved tensor (CheckpointIndex.tensor): a distinct
 * shard of the sharding it was saved under, stored once.
 *
 * @param ranges the piece's box of its tensor: [start0, stop0, start1, stop1, ...]
 * @param file   the file holding it (CheckpointIndex.files)
 */
public record StoredPiece(long[] ranges, long file) {
  @Override
  public String toString() {
    return java.util.Arrays.toString(ranges) + " in file " + file;
  }
}
