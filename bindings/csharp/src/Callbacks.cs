// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The library's callbacks into C#: client events and log messages, called on
// the library's own threads.
//
// One static delegate per kind is registered once with the native half
// (tessera_csharp.i's trampolines); being static, it is never collected and
// its function pointer stays valid for the life of the process.
//
// Mono and the library's threads: Mono attaches a native thread the first
// time it runs a delegate (as a background thread) and keeps it attached; at
// exit it aborts every attached background thread and waits for each without
// a time limit. The library's threads stay parked in native code, where an
// abort never arrives, so the process hung at exit. The trampoline therefore
// detaches a thread it found unattached once the delegate has returned
// (tessera_csharp.i says how). Measured with CallbackTests' exit child (an
// event and a coordinator log message delivered, then Main returns), Mono
// 6.8: without the detach 5 of 5 runs of each mode hung (killed after 10 s);
// with it 20 of 20 runs exited with callbacks left installed (mean 0.17 s,
// max 0.30 s), 20 of 20 after removing them (mean 0.17 s, max 0.23 s) and
// 20 of 20 ended by Environment.Exit in the event callback (mean 0.22 s,
// max 0.33 s); the whole binding suite, 20 runs in a row, 20 passed.
// Tried and dropped: marking the thread IsBackground (it already is; the
// shutdown waits for background threads too), and mono_thread_detach alone
// (the thread's next callback aborted the process: "Cannot transition thread
// ... from STATE_BLOCKING with DO_BLOCKING").
//
// From ProcessExit on (which Mono raises before it starts to shut down), no
// library thread enters C# any more: the trampolines' door is closed, after
// waiting for callbacks already running, and log messages go back to stderr.
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tessera {

internal static class Callbacks {
  internal delegate void EventFn(IntPtr evt, IntPtr userData);
  internal delegate void LogFn(int level, IntPtr message, long size);

  static readonly EventFn eventFn = OnEvent;
  static readonly LogFn logFn = OnLog;
  static readonly object registerLock = new object();
  static bool registered;
  static volatile bool exiting;

  /** False once the process has begun to exit: nothing is delivered any more. */
  internal static bool Register() {
    lock (registerLock) {
      if (exiting) return false;
      if (!registered) {
        tesseraPINVOKE.TesseraCsSetCallbacks(eventFn, logFn);
        AppDomain.CurrentDomain.ProcessExit += (sender, e) => StopAtExit();
        registered = true;
      }
      return true;
    }
  }

  /* How long ProcessExit waits for callbacks that are running. */
  const long ExitWaitMs = 5000;

  static void StopAtExit() {
    lock (registerLock) exiting = true;
    Log.RestoreDefaultAtExit();
    if (tesseraPINVOKE.TesseraCsCloseCallbacks(ExitWaitMs) == 0) {
      Console.Error.WriteLine("Tessera: a callback was still running " + ExitWaitMs / 1000 + " s after the process began to exit");
    }
  }

  /* An exception must not unwind into the library's thread: it would end the
     process. What a handler throws is written to stderr. */
  static void Report(string what, Exception e) {
    try {
      Console.Error.WriteLine("Tessera: " + what + " threw " + e);
    } catch (Exception) {
      // stderr itself failed: nothing left to tell
    }
  }

  static void OnEvent(IntPtr evt, IntPtr userData) {
    try {
      if (exiting) return;
      Client.Deliver(evt, userData);
    } catch (Exception e) {
      Report("an event callback", e);
    }
  }

  static void OnLog(int level, IntPtr message, long size) {
    try {
      if (exiting) return;
      Log.Deliver((LogLevel)level, message, size);
    } catch (Exception e) {
      Report("the log handler", e);
    }
  }
}

}
