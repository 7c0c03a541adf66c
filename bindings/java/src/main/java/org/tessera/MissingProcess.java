// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * A process a failed barrier or registration was missing: its id, its state
 * at the coordinator, and the barrier it was waiting at instead ("id#counter",
 * "" when none).
 */
public record MissingProcess(long processIndex, TaskState state, String waitingAt)
    implements java.io.Serializable {
  @Override
  public String toString() {
    return "process " + processIndex + " (" + state
        + (waitingAt.isEmpty() ? "" : ", waiting at " + waitingAt) + ")";
  }
}
