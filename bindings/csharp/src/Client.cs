// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Client events delivered to a C# delegate on the library's event thread
// (tessera_client_set_event_callback; src/Callbacks.cs says how that thread
// is kept from blocking Mono's exit).
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tessera {

/** A copy of one event. */
public sealed class ClusterEvent {
  /** What happened. */
  public EventKind Kind { get; }
  /** The process the event is about; -1 when none. */
  public long ProcessIndex { get; }
  /** That process's state. */
  public TaskState TaskState { get; }
  /** The error code of a job error (Code.Ok otherwise). */
  public Code Code { get; }
  /** The event's message. */
  public string Message { get; }
  /** The topology generation. */
  public long Generation { get; }
  /** The event's sequence number. */
  public long Version { get; }

  internal ClusterEvent(Event e) {
    Kind = e.Kind;
    ProcessIndex = e.ProcessIndex;
    TaskState = e.TaskState;
    Code = e.Code;
    Message = e.Message;
    Generation = e.Generation;
    Version = e.Version;
  }

  /** The kind, process, code and message, for people. */
  public override string ToString() {
    return Kind + "(process " + ProcessIndex + ", " + Code + ": " + Message + ")";
  }
}

public partial class Client {
  /* What the native callback's user data (a GCHandle) points to. It does not
     reference the Client, so an installed callback does not keep a client
     that is no longer used from being finalized. */
  private sealed class EventTarget {
    internal readonly Action<ClusterEvent> Callback;
    internal EventTarget(Action<ClusterEvent> callback) { Callback = callback; }
  }

  private readonly object eventLock = new object();
  private GCHandle eventTarget;  // allocated while a callback is installed
  private volatile EventTarget installedTarget;  // its target, read without the lock

  /* The target whose callback runs on this thread now, if any. */
  [ThreadStatic] private static EventTarget runningTarget;

  /**
   * Calls `callback` on the library's event thread (never the caller's, not
   * a thread-pool thread) for every event from now on, one at a time; null
   * stops the calls. When this returns, the callback it replaced has
   * finished and will not run again. An exception thrown by `callback` is
   * written to stderr. While a callback is installed, events are no longer
   * returned by NextEvent. Neither this nor Dispose may be called from this
   * client's own callback (InvalidOperationException: the library would wait
   * for the callback to end).
   */
  public void SetEventCallback(Action<ClusterEvent> callback) {
    CheckNotInOwnCallback("SetEventCallback");
    lock (eventLock) {
      if (callback != null && !Callbacks.Register()) return;  // the process is exiting
      GCHandle previous = eventTarget;
      GCHandle next = callback == null ? default(GCHandle) : GCHandle.Alloc(new EventTarget(callback));
      try {
        SetEventCallbackKey(next.IsAllocated ? GCHandle.ToIntPtr(next).ToInt64() : 0);
      } catch {
        if (next.IsAllocated) next.Free();
        throw;
      }
      // The library no longer calls the previous one (it waited for it).
      eventTarget = next;
      installedTarget = next.IsAllocated ? (EventTarget)next.Target : null;
      if (previous.IsAllocated) previous.Free();
    }
  }

  /* Before any lock: another thread may hold it while the library waits for
     this very callback to end. */
  private void CheckNotInOwnCallback(string what) {
    EventTarget running = runningTarget;
    if (running != null && running == installedTarget) {
      throw new InvalidOperationException("Client." + what + " was called from the client's own event callback");
    }
  }

  /* From the native trampoline, on the library's event thread. */
  internal static void Deliver(IntPtr evt, IntPtr key) {
    var target = (EventTarget)GCHandle.FromIntPtr(key).Target;
    ClusterEvent copy;
    using (var borrowed = new Event(evt, false)) copy = new ClusterEvent(borrowed);
    runningTarget = target;
    try {
      target.Callback(copy);
    } finally {
      runningTarget = null;
    }
  }

  partial void CheckDisposable() { CheckNotInOwnCallback("Dispose"); }

  /* Before the native client is destroyed: the callback is removed (the
     library waits for a running one), then its handle freed. The runtime's
     finalizers at exit leave the native client to the ending process: both
     the removal and the destroy wait for a running callback, which may itself
     be waiting for those finalizers (Environment.Exit in a callback). */
  partial void OnDisposing(bool disposing, ref bool release) {
    if (!disposing && Environment.HasShutdownStarted) {
      release = false;
      return;
    }
    lock (eventLock) {
      if (!eventTarget.IsAllocated) return;
      try {
        SetEventCallbackKey(0);
      } catch (Exception) {
        // Removal does not fail on a live client; the destroy that follows
        // removes it in any case.
      }
      installedTarget = null;
      eventTarget.Free();
    }
  }
}

}
