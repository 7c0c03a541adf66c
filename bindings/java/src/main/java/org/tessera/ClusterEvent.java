// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/** One event from the coordinator, as a listener receives it (a copy: it outlives the call). */
public final class ClusterEvent {
  private final EventKind kind;
  private final long processIndex;
  private final TaskState taskState;
  private final Code code;
  private final String message;
  private final long generation;
  private final long version;

  ClusterEvent(EventKind kind, long processIndex, TaskState taskState, Code code, String message,
               long generation, long version) {
    this.kind = kind;
    this.processIndex = processIndex;
    this.taskState = taskState;
    this.code = code;
    this.message = message;
    this.generation = generation;
    this.version = version;
  }

  public EventKind kind() { return kind; }
  /** The process the event is about; -1 when none. */
  public long processIndex() { return processIndex; }
  /** For TASK_CHANGED: the new state; null otherwise. */
  public TaskState taskState() { return taskState; }
  /** For JOB_ERROR and COORDINATOR_LOST: the code; OK otherwise. */
  public Code code() { return code; }
  public String message() { return message; }
  /** For TOPOLOGY_CHANGED: the generation; 0 otherwise. */
  public long generation() { return generation; }
  /** The coordinator's event version (increasing). */
  public long version() { return version; }

  @Override
  public String toString() {
    return "ClusterEvent(" + kind + ", process " + processIndex + ", " + taskState + ", " + code
        + ", '" + message + "', generation " + generation + ", version " + version + ")";
  }
}
