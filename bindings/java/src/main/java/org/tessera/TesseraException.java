// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.util.ArrayList;
import java.util.List;

/**
 * An error from the Tessera library: its {@link Code} (absl's canonical codes)
 * and its message, which names the argument, the value and what was expected.
 * Errors of the cluster API also say why ({@link #reason}), which process
 * caused them, which processes were missing (with their state and the
 * barrier each was waiting at) and which had arrived. Unchecked, like the
 * JDK's IllegalArgumentException.
 */
public class TesseraException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Code code;
  private final ErrorReason reason;
  private final long sourceProcess;
  private final List<MissingProcess> missing;
  private final List<Long> arrivedProcesses;

  /**
   * An error the Java layer raises itself (no cluster details).
   *
   * @param code the error's code (null: UNKNOWN)
   * @param message what went wrong, naming the argument, value and expectation
   */
  public TesseraException(Code code, String message) {
    this(code, message, ErrorReason.NONE, -1, List.of(), List.of());
  }

  private TesseraException(Code code, String message, ErrorReason reason, long sourceProcess,
                           List<MissingProcess> missing, List<Long> arrivedProcesses) {
    super(message);
    this.code = code == null ? Code.UNKNOWN : code;
    this.reason = reason;
    this.sourceProcess = sourceProcess;
    this.missing = missing;
    this.arrivedProcesses = arrivedProcesses;
  }

  /** The error's code. */
  public Code code() {
    return code;
  }

  /** Why a cluster call failed beyond its code; NONE otherwise. */
  public ErrorReason reason() {
    return reason;
  }

  /** The process that caused a cluster error; -1 when none. */
  public long sourceProcess() {
    return sourceProcess;
  }

  /** The ids of the processes a barrier or registration was missing (empty when none). */
  public long[] missingProcesses() {
    return missing.stream().mapToLong(MissingProcess::processIndex).toArray();
  }

  /**
   * The processes a barrier or registration was missing, each with its state
   * and the barrier it was waiting at (immutable; empty when none).
   */
  public List<MissingProcess> missing() {
    return missing;
  }

  /** The processes that had arrived at a failed barrier (immutable; empty when none). */
  public List<Long> arrivedProcesses() {
    return arrivedProcesses;
  }

  @Override
  public String toString() {
    return "TesseraException(" + code + "): " + getMessage();
  }

  /**
   * Called from the JNI glue: the C error's code, UTF-8 message and details;
   * the three missing-process arrays are as long as each other (or null: none).
   */
  static TesseraException fromNative(int code, byte[] utf8Message, int reason,
                                     long sourceProcess, long[] missingProcesses,
                                     int[] missingStates, byte[][] missingWaitingAt,
                                     long[] arrivedProcesses) {
    List<MissingProcess> missing = new ArrayList<>();
    for (int i = 0; missingProcesses != null && i < missingProcesses.length; ++i) {
      missing.add(new MissingProcess(missingProcesses[i], stateOf(missingStates[i]),
                                     Utf8.decode(missingWaitingAt[i])));
    }
    List<Long> arrived = new ArrayList<>();
    for (int i = 0; arrivedProcesses != null && i < arrivedProcesses.length; ++i) {
      arrived.add(arrivedProcesses[i]);
    }
    return new TesseraException(codeOf(code), Utf8.decode(utf8Message), reasonOf(reason),
                                sourceProcess, List.copyOf(missing), List.copyOf(arrived));
  }

  /** The C library's own value for a state it does not know. */
  private static TaskState stateOf(int value) {
    try {
      return TaskState.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return TaskState.NEVER_CONNECTED;
    }
  }

  private static ErrorReason reasonOf(int value) {
    try {
      return ErrorReason.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return ErrorReason.NONE;
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
