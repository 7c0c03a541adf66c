// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The one exception type of the binding: every tessera_error a call returns
// arrives as a TesseraException carrying the library's code and message, and
// for a failed barrier or registration, which processes were missing (and
// where each was) and which had arrived.
using System.Collections.Generic;
using System.Collections.ObjectModel;

namespace Tessera {

/** A process a barrier or the job's registration was still waiting for. */
public sealed class MissingProcess {
  /** The process's index. */
  public long ProcessIndex { get; }

  /** Its state at the coordinator (NeverConnected: never seen). */
  public TaskState State { get; }

  /** The barrier ("id#counter") it is waiting at; "" when none. */
  public string WaitingAt { get; }

  /** A missing process: its index, state and barrier (null: none). */
  public MissingProcess(long processIndex, TaskState state, string waitingAt) {
    ProcessIndex = processIndex;
    State = state;
    WaitingAt = waitingAt ?? "";
  }

  /** The process, its state and its barrier, for people. */
  public override string ToString() {
    return "process " + ProcessIndex + " (" + State + (WaitingAt == "" ? "" : ", waiting at " + WaitingAt) + ")";
  }
}

/** An error from the library: its Code, its message (naming the argument, the value and what was expected) and, for cluster calls, why and which processes. */
public class TesseraException : global::System.Exception {
  static readonly IReadOnlyList<MissingProcess> NoMissing = new ReadOnlyCollection<MissingProcess>(new MissingProcess[0]);
  static readonly IReadOnlyList<long> NoProcesses = new ReadOnlyCollection<long>(new long[0]);

  /** The library's error code (absl's canonical codes, same numbers). */
  public Code Code { get; }

  /** Why a cluster call failed beyond its code (ErrorReason.None otherwise). */
  public ErrorReason Reason { get; }

  /** The process that caused a cluster failure; -1 when none. */
  public long SourceProcess { get; }

  /** The processes a failed barrier or registration was missing, in the library's order; empty otherwise. */
  public IReadOnlyList<MissingProcess> MissingProcesses { get; }

  /** The processes that had arrived at a failed barrier; empty otherwise. */
  public IReadOnlyList<long> ArrivedProcesses { get; }

  /** An error the binding raises itself (no cluster details). */
  public TesseraException(Code code, string message) : this(code, message, ErrorReason.None, -1) {}

  /** A cluster error without missing or arrived processes. */
  public TesseraException(Code code, string message, ErrorReason reason, long sourceProcess)
      : this(code, message, reason, sourceProcess, null, null) {}

  /** A cluster error with its missing and arrived processes (null: none). */
  public TesseraException(Code code, string message, ErrorReason reason, long sourceProcess,
                          IList<MissingProcess> missing, IList<long> arrived) : base(message) {
    Code = code;
    Reason = reason;
    SourceProcess = sourceProcess;
    MissingProcesses = missing == null || missing.Count == 0 ? NoMissing
                       : new ReadOnlyCollection<MissingProcess>(new List<MissingProcess>(missing));
    ArrivedProcesses = arrived == null || arrived.Count == 0 ? NoProcesses
                       : new ReadOnlyCollection<long>(new List<long>(arrived));
  }

  /** The code and message, for people. */
  public override string ToString() {
    return "TesseraException(" + Code + "): " + Message;
  }

  /* Sizes and indices are C# longs; the C side takes size_t. A negative value
     would wrap to a huge one, so it is rejected here with the library's
     message style. */
  internal static void CheckNonNegative(long value, string name) {
    if (value < 0) {
      throw new TesseraException(Code.InvalidArgument,
          "Argument '" + name + "' must be >= 0, got " + value);
    }
  }
}

}
