// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A tensor of a sharded checkpoint as its index describes it
 * (CheckpointIndex.tensor); CheckpointIndex.tensorSharding gives the
 * sharding it was saved under.
 *
 * @param name   the tensor's name
 * @param dtype  the safetensors dtype ("F32", "BF16", ...)
 * @param shape  the global shape, outermost dimension first; empty for a scalar
 * @param pieces the pieces it is stored in, sorted by their ranges
 */
public record StoredTensor(String name, String dtype, long[] shape, java.util.List<StoredPiece> pieces) {
  @Override
  public String toString() {
    return name + " " + dtype + java.util.Arrays.toString(shape) + " in " + pieces.size() + " pieces";
  }
}
