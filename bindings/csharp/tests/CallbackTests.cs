// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Native callbacks on the library's own threads: client events and log
// messages reach C# delegates, a throwing handler does not end the process,
// and a process whose library threads ran C# code still exits promptly.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Tessera.Tests {

public static class CallbackTests {
  const int StepTimeoutMs = 20000;
  const int ExitTimeoutMs = 30000;

  /* Where a delegate ran. */
  sealed class ThreadSeen {
    public readonly int Id = Thread.CurrentThread.ManagedThreadId;
    public readonly bool IsThreadPool = Thread.CurrentThread.IsThreadPoolThread;
  }

  /* A one-process job whose client reports an error: the coordinator logs
     it (kError, on one of its threads) and the client gets a JOB_ERROR
     event. */
  sealed class FailingJob : IDisposable {
    public readonly ClusterOptions Options = new ClusterOptions();
    public readonly Coordinator Coordinator;
    public readonly Client Client;

    public FailingJob(string jobId) {
      Options.SetDetection("none");
      Options.SetBindAddress("127.0.0.1:0");
      Options.SetNumProcesses(1);
      Options.SetJobId(jobId);
      Options.SetHeartbeat(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(2000));
      Options.SetShutdownTimeout(TimeSpan.FromMilliseconds(2000));
      Coordinator = new Coordinator(Options);
      Options.SetCoordinatorAddress("127.0.0.1:" + Coordinator.Port);
      Options.SetProcessIndex(0);
      Client = Options.Connect();
    }

    public void Fail(string message) { Client.ReportError(Code.Internal, message); }

    public void Dispose() {
      Client.Dispose();
      Coordinator.Dispose();
      Options.Dispose();
    }
  }

  /* ---- events --------------------------------------------------------- */

  [Test]
  public static void EventCallbackRunsOnTheLibrarysEventThread() {
    using (var job = new FailingJob("csharp-event-thread")) {
      var received = new ManualResetEventSlim(false);
      ClusterEvent seen = null;
      ThreadSeen thread = null;
      job.Client.SetEventCallback(e => {
        if (e.Kind != EventKind.JobError || received.IsSet) return;
        seen = e;
        thread = new ThreadSeen();
        received.Set();
      });
      GC.Collect();  // what the native side holds must survive a collection
      GC.WaitForPendingFinalizers();
      job.Fail("boom for the event thread");
      Assert.True(received.Wait(StepTimeoutMs), "JOB_ERROR event delivered within 20 s");
      Assert.Equal(0L, seen.ProcessIndex, "the failed process");
      Assert.Contains("process 0 reported an error: boom for the event thread", seen.Message);
      Assert.True(thread.Id != Thread.CurrentThread.ManagedThreadId, "not the test's thread");
      Assert.True(!thread.IsThreadPool, "not a thread-pool thread");
    }
  }

  [Test]
  public static void RemovedEventCallbackIsNotCalledAndEventsQueueAgain() {
    using (var job = new FailingJob("csharp-event-removed")) {
      int calls = 0;
      job.Client.SetEventCallback(e => Interlocked.Increment(ref calls));
      job.Client.SetEventCallback(null);
      job.Fail("after the removal");
      bool queuedJobError = false;
      for (int i = 0; i < 10 && !queuedJobError; i++) {  // the topology's event comes first
        using (Event queued = job.Client.NextEvent(TimeSpan.FromMilliseconds(StepTimeoutMs))) queuedJobError = queued.Kind == EventKind.JobError;
      }
      Assert.True(queuedJobError, "the JOB_ERROR event was queued for NextEvent");
      Assert.Equal(0, Volatile.Read(ref calls), "calls of the removed callback");
    }
  }

  [Test]
  public static void SetEventCallbackAndDisposeFromItsOwnCallbackAreRefused() {
    using (var job = new FailingJob("csharp-event-reentrant")) {
      var done = new ManualResetEventSlim(false);
      Exception refusedSet = null, refusedDispose = null;
      job.Client.SetEventCallback(e => {
        if (done.IsSet) return;
        try {
          job.Client.SetEventCallback(null);
        } catch (Exception ex) {
          refusedSet = ex;
        }
        try {
          job.Client.Dispose();
        } catch (Exception ex) {
          refusedDispose = ex;
        }
        done.Set();
      });
      job.Fail("re-entrant");
      Assert.True(done.Wait(StepTimeoutMs), "event delivered within 20 s");
      Assert.True(refusedSet is InvalidOperationException, "SetEventCallback: InvalidOperationException, got " + refusedSet);
      Assert.Contains("Client.SetEventCallback was called from the client's own event callback", refusedSet.Message);
      Assert.True(refusedDispose is InvalidOperationException, "Dispose: InvalidOperationException, got " + refusedDispose);
      Assert.True(!job.Client.IsDisposed, "the client is still usable");
    }
  }

  [Test]
  public static void ThrowingEventCallbackDoesNotEndTheProcess() {
    using (var job = new FailingJob("csharp-event-throws")) {
      var called = new ManualResetEventSlim(false);
      job.Client.SetEventCallback(e => {
        called.Set();
        throw new InvalidOperationException("thrown by the test's event callback");
      });
      job.Fail("to be thrown at");
      Assert.True(called.Wait(StepTimeoutMs), "callback called within 20 s");
      Assert.Equal("options", job.Options.Detect().Source, "the binding still answers");
    }
  }

  /* ---- log ------------------------------------------------------------ */

  /* Collects messages; restores the default sink when disposed. */
  sealed class LogCapture : IDisposable {
    readonly object gate = new object();
    readonly List<Tuple<LogLevel, string, ThreadSeen>> messages = new List<Tuple<LogLevel, string, ThreadSeen>>();

    public LogCapture(LogLevel minLevel) { Log.SetHandler(Add, minLevel); }

    void Add(LogLevel level, string message) {
      lock (gate) messages.Add(Tuple.Create(level, message, new ThreadSeen()));
    }

    public Tuple<LogLevel, string, ThreadSeen>[] Matching(string needle) {
      lock (gate) return messages.Where(m => m.Item2.Contains(needle)).ToArray();
    }

    /* Waits (bounded) for a message containing `needle`. */
    public Tuple<LogLevel, string, ThreadSeen> WaitFor(string needle) {
      var watch = Stopwatch.StartNew();
      while (watch.ElapsedMilliseconds < StepTimeoutMs) {
        var found = Matching(needle);
        if (found.Length > 0) return found[0];
        Thread.Sleep(10);
      }
      throw new AssertionException("no log message containing <" + needle + "> within 20 s");
    }

    public void Dispose() { Log.SetHandler(null); }
  }

  /* Keras's warning for a data-parallel mesh of rank 2, logged by the call. */
  static void LogRankWarning() {
    using (var mesh = new Mesh(new long[] {2, 2}, new[] {"a", "b"}, new[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}))
    using (Distribution.DataParallel(mesh, null)) {}
  }

  [Test]
  public static void LogHandlerReceivesALibraryWarning() {
    using (var log = new LogCapture(LogLevel.Warning)) {
      LogRankWarning();
      var message = log.WaitFor("Expect the input mesh to be 1D");
      Assert.Equal(LogLevel.Warning, message.Item1, "level");
      Assert.Equal("Expect the input mesh to be 1D, but received mesh.devices.ndim=2. " +
                   "The first axis will be used for data-parallel sharding.", message.Item2, "message");
    }
  }

  [Test]
  public static void LogHandlerRunsOnALibraryThread() {
    using (var log = new LogCapture(LogLevel.Warning))
    using (var job = new FailingJob("csharp-log-thread")) {
      job.Fail("boom for the log thread");
      var message = log.WaitFor("boom for the log thread");
      Assert.Equal(LogLevel.Error, message.Item1, "level");
      Assert.Contains("coordinator: job 'csharp-log-thread' failed", message.Item2);
      Assert.True(message.Item3.Id != Thread.CurrentThread.ManagedThreadId, "not the test's thread");
      Assert.True(!message.Item3.IsThreadPool, "not a thread-pool thread");
    }
  }

  [Test]
  public static void LogHandlerBelowItsLevelIsNotCalled() {
    using (var log = new LogCapture(LogLevel.Error)) {
      LogRankWarning();
      Assert.Equal(0, log.Matching("Expect the input mesh").Length, "warnings delivered to an error-level handler");
    }
  }

  [Test]
  public static void RemovedLogHandlerIsNotCalled() {
    var log = new LogCapture(LogLevel.Warning);
    log.Dispose();
    LogRankWarning();  // to stderr again
    Assert.Equal(0, log.Matching("Expect the input mesh").Length, "messages after the removal");
  }

  [Test]
  public static void ThrowingLogHandlerDoesNotEndTheProcess() {
    int calls = 0;
    Log.SetHandler((level, message) => {
      Interlocked.Increment(ref calls);
      throw new InvalidOperationException("thrown by the test's log handler");
    });
    try {
      LogRankWarning();
      LogRankWarning();
    } finally {
      Log.SetHandler(null);
    }
    Assert.Equal(2, Volatile.Read(ref calls), "handler calls");
  }

  [Test]
  public static void SetLogHandlerFromTheHandlerIsRefused() {
    Exception refused = null;
    Log.SetHandler((level, message) => {
      try {
        Log.SetHandler(null);
      } catch (Exception e) {
        refused = e;
      }
    });
    try {
      LogRankWarning();
    } finally {
      Log.SetHandler(null);
    }
    Assert.True(refused is InvalidOperationException, "InvalidOperationException, got " + refused);
  }

  [Test]
  public static void LogLevelOutOfRangeIsInvalidArgument() {
    Assert.Throws(Code.InvalidArgument, "min_level", () => Log.SetHandler((l, m) => {}, (LogLevel)7));
  }

  /* ---- exit ----------------------------------------------------------- */

  /* `TesseraTests.exe child-callbacks <leave|dispose|exit-in-callback>`:
     runs C# code on the library's event thread and a coordinator thread (an
     event callback and a log handler), then returns from Main: with both
     still installed and the job's handles left to the runtime ("leave"), or
     after disposing them; or the event callback ends the process itself
     (Environment.Exit, exit code 3). */
  public static int ChildMain(string[] args) {
    bool leave = args.Length > 0 && args[0] == "leave";
    bool exitInCallback = args.Length > 0 && args[0] == "exit-in-callback";
    var events = new ManualResetEventSlim(false);
    var logged = new ManualResetEventSlim(false);
    var job = new FailingJob("csharp-exit-" + args[0]);
    Log.SetHandler((level, message) => { if (message.Contains("exit test")) logged.Set(); });
    job.Client.SetEventCallback(e => {
      if (e.Kind != EventKind.JobError) return;
      if (exitInCallback) {
        Console.WriteLine("child: exiting from the event callback");
        Environment.Exit(3);  // Main waits below until then
      }
      events.Set();
    });
    job.Fail("exit test");
    if (!events.Wait(StepTimeoutMs) || !logged.Wait(StepTimeoutMs)) {
      Console.WriteLine("child: no event or log message within 20 s");
      return 1;
    }
    if (!leave) {
      job.Client.SetEventCallback(null);
      Log.SetHandler(null);
      job.Dispose();
    }
    Console.WriteLine("child: returning from Main");
    return 0;
  }

  static void RunsAndExitsPromptly(string mode, int exitCode = 0, string output = "child: returning from Main") {
    string mono = Process.GetCurrentProcess().MainModule.FileName;
    string exe = typeof(CallbackTests).Assembly.Location;
    var info = new ProcessStartInfo(mono, "\"" + exe + "\" child-callbacks " + mode) {
      UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
    };
    using (Process child = Process.Start(info)) {
      Task<string> stderr = child.StandardError.ReadToEndAsync();
      Task<string> stdout = child.StandardOutput.ReadToEndAsync();
      try {
        bool exited = child.WaitForExit(ExitTimeoutMs);
        Assert.True(exited, "child (" + mode + ") exited within " + ExitTimeoutMs / 1000 + " s");
        child.WaitForExit();  // the output streams are complete
        Assert.Equal(exitCode, child.ExitCode, "exit code; output: " + stdout.Result.Trim() + " " + stderr.Result.Trim());
        Assert.Contains(output, stdout.Result);
      } finally {
        if (!child.HasExited) {
          child.Kill();
          child.WaitForExit();
        }
      }
    }
  }

  [Test]
  public static void ProcessExitsWithCallbacksStillInstalled() { RunsAndExitsPromptly("leave"); }

  [Test]
  public static void ProcessExitsAfterCallbacksAreRemoved() { RunsAndExitsPromptly("dispose"); }

  [Test]
  public static void EventCallbackCanEndTheProcess() {
    RunsAndExitsPromptly("exit-in-callback", 3, "child: exiting from the event callback");
  }
}

}
