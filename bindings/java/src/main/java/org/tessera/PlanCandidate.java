// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A mesh shape and layout map a checkpoint was tried on (CheckpointPlanSearch.candidate).
 *
 * @param meshShape one size per axis of the maps' mesh
 * @param layoutMap the position of its map in the maps searched
 * @param peak      its largest device peak, in bytes
 * @param problem   why it is rejected (a tensor whose layout does not fit, or the first device
 *                  over its capacity); "" when it fits
 */
public record PlanCandidate(long[] meshShape, long layoutMap, long peak, String problem) {
  /** Whether every tensor's layout fits and every device's peak fits its capacity. */
  public boolean fits() {
    return problem.isEmpty();
  }
}
