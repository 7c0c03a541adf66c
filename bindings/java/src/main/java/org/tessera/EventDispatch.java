// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/** Called by the JNI trampoline on the library's event thread. */
final class EventDispatch {
  private EventDispatch() {}

  static void dispatch(EventListener listener, int kind, long processIndex, int taskState, int code,
                       byte[] message, long generation, long version) {
    try {
      listener.onEvent(new ClusterEvent(kindOf(kind), processIndex, stateOf(taskState),
                                        codeOf(code), Utf8.decode(message), generation,
                                        version));
    } catch (Throwable t) {
      // Nothing may propagate into the library's thread.
      System.err.println("tessera: event listener threw " + t);
    }
  }

  private static EventKind kindOf(int value) {
    try {
      return EventKind.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Only TASK_CHANGED events carry a state. */
  private static TaskState stateOf(int value) {
    try {
      return TaskState.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Code codeOf(int value) {
    try {
      return Code.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return Code.UNKNOWN;
    }
  }
}
