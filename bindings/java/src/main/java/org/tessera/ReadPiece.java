// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * One (device, tensor) piece of a read plan (ReadPlan.piece): the device's
 * shard of the tensor as row-major contiguous bytes in the checkpoint's
 * element type.
 *
 * @param device the logical device (row-major mesh position)
 * @param tensor the tensor's position in the checkpoint (Checkpoint.tensor); in a restore plan, in its
 *               RestoreRequest, or without one in the index (CheckpointIndex.tensor)
 * @param ranges the box of the tensor: [start0, stop0, start1, stop1, ...]
 * @param shape  the shard's shape (stop - start per dimension)
 * @param size   the shard's bytes: the capacity its buffer must have
 */
public record ReadPiece(long device, long tensor, long[] ranges, long[] shape, long size) {}
