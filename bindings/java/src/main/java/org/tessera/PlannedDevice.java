// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A device's memory in a checkpoint's plan (CheckpointPlan.device), in bytes per term; a term the
 * recipe does not have is 0.
 *
 * @param weights        the tensors' shards
 * @param kvCache        the KV cache's share (inference)
 * @param gradients      gradients, as the weights (training)
 * @param optimizerState Adam's two f32 moments (training)
 * @param masterWeights  f32 copies of 16-bit weights (training)
 * @param peak           the sum of the terms
 * @param capacity       the device's capacity, -1 when unknown
 * @param verdict        whether the peak fits the capacity
 */
public record PlannedDevice(long weights, long kvCache, long gradients, long optimizerState, long masterWeights,
                            long peak, long capacity, PlanVerdict verdict) {
  /** capacity - peak: negative when the device does not fit (meaningless when the capacity is unknown). */
  public long headroom() {
    return capacity - peak;
  }
}
