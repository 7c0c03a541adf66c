// Client events delivered to a C# delegate.
//
// Why not the library's native callback: Mono attaches the library's event
// thread to the runtime when that thread first runs a delegate, and at exit
// waits for every attached thread to return to managed code; the library's
// thread never does, so the process could not exit. Instead one background
// thread per client takes the events the library queues
// (tessera_client_next_event, which queues while no native callback is set)
// and calls the delegate; it waits at most PollMs at a time, so it always
// comes back to managed code and never blocks the runtime's shutdown.
using System;
using System.Threading;

namespace Tessera {

/** A copy of one event. */
public sealed class ClusterEvent {
  public EventKind Kind { get; }
  /** The process the event is about; -1 when none. */
  public long ProcessId { get; }
  public TaskState TaskState { get; }
  public Code Code { get; }
  public string Message { get; }
  public long Generation { get; }
  public long Version { get; }

  internal ClusterEvent(Event e) {
    Kind = e.Kind();
    ProcessId = e.ProcessId();
    TaskState = e.TaskState();
    Code = e.Code();
    Message = e.Message();
    Generation = e.Generation();
    Version = e.Version();
  }

  public override string ToString() {
    return Kind + "(process " + ProcessId + ", " + Code + ": " + Message + ")";
  }
}

public partial class Client {
  const int PollMs = 200;

  private readonly object eventLock = new object();
  private Action<ClusterEvent> eventCallback;
  private Thread eventThread;
  private volatile bool eventThreadStop;

  /**
   * Calls `callback` on a background thread of the binding (never the
   * caller's) for every event from now on, one at a time; null stops the
   * calls. An exception thrown by `callback` is written to stderr. Events are
   * then no longer returned by NextEvent.
   */
  public void SetEventCallback(Action<ClusterEvent> callback) {
    lock (eventLock) {
      eventCallback = callback;
      if (callback != null && eventThread == null) {
        eventThreadStop = false;
        eventThread = new Thread(PumpEvents) {IsBackground = true, Name = "tessera-events"};
        eventThread.Start();
      } else if (callback == null) {
        StopEventThread();
      }
    }
  }

  private void PumpEvents() {
    while (!eventThreadStop) {
      Event next;
      try {
        next = NextEvent(PollMs);
      } catch (TesseraException e) when (e.Code == Code.DeadlineExceeded || e.Code == Code.Cancelled) {
        continue;
      } catch (TesseraException) {
        Thread.Sleep(PollMs);  // e.g. the job failed: keep draining what is queued
        continue;
      }
      if (next == null) continue;
      using (next) {
        Action<ClusterEvent> callback = eventCallback;
        if (callback == null || eventThreadStop) continue;
        try {
          callback(new ClusterEvent(next));
        } catch (Exception e) {
          Console.Error.WriteLine("Tessera: event callback threw " + e);
        }
      }
    }
  }

  /* Stops the pump (at most PollMs) before the client can be destroyed: the
     C API forbids destroy concurrently with another call on the client. */
  private void StopEventThread() {
    Thread thread = eventThread;
    if (thread == null) return;
    eventThreadStop = true;
    if (thread != Thread.CurrentThread) thread.Join();
    eventThread = null;
  }

  partial void OnDisposing() {
    lock (eventLock) StopEventThread();
  }
}

}
