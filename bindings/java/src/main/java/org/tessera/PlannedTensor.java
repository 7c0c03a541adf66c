// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A tensor of a checkpoint as a memory plan places it (CheckpointPlan.tensor).
 *
 * @param elementType the type it is planned at (the planned dtype, else the checkpoint's), as the
 *                    format spells it
 * @param rule        the index of the layout map's rule it matched, -1 when none (or several) did
 * @param shardShape  the largest shard's shape (ceil(size / shards) per dimension)
 * @param shardBytes  the largest shard's bytes at its planned type
 * @param problem     why its layout does not fit it (several rules, the ranks differ, a dimension
 *                    not divisible, a cut quantized block); "" when it does
 */
public record PlannedTensor(String elementType, long rule, long[] shardShape, long shardBytes, String problem) {}
