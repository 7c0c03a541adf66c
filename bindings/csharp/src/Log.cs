// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The library's log messages delivered to a C# handler (tessera/log.h).
using System;
using System.Threading;

namespace Tessera {

/**
 * Where the library's log messages go. By default warnings and errors are
 * written to stderr. (A class named after the namespace could not be reached
 * as Tessera.X from code that imports the namespace, hence Log.SetHandler for
 * the other bindings' Tessera.setLogHandler.)
 */
public static class Log {
  static readonly object handlerLock = new object();
  static volatile Action<LogLevel, string> handler;
  [ThreadStatic] static bool inHandler;

  /**
   * Sends every message of `minLevel` and above to `handler`; null restores
   * the default (stderr, warnings and above). The handler runs on the thread
   * that logs: a library thread (made a background thread) or, for a
   * message a call logs, the caller's; possibly on several threads at once.
   * What it throws is written to stderr. It must not call SetHandler
   * (InvalidOperationException). A message already being delivered when the
   * handler is replaced or removed may still reach the old one, or none.
   * @throws TesseraException InvalidArgument when minLevel is not a LogLevel.
   */
  public static void SetHandler(Action<LogLevel, string> handler, LogLevel minLevel = LogLevel.Warning) {
    if (inHandler) throw new InvalidOperationException("Log.SetHandler was called from the log handler");
    lock (handlerLock) {
      if (handler != null && !Callbacks.Register()) return;  // the process is exiting
      tesseraPINVOKE.TesseraCsSetLogCallback(handler != null ? 1 : 0, (int)minLevel);
      if (tesseraPINVOKE.SWIGPendingException.Pending) throw tesseraPINVOKE.SWIGPendingException.Retrieve();
      Log.handler = handler;
    }
  }

  internal static void Deliver(LogLevel level, IntPtr message, long size) {
    Action<LogLevel, string> current = handler;
    if (current == null) return;  // removed since the library read its sink
    inHandler = true;
    try {
      current(level, TesseraUtf8.Decode(message, size));
    } finally {
      inHandler = false;
    }
  }

  /* From ProcessExit: messages logged while the runtime shuts down (and
     after) go to stderr instead of into it. */
  internal static void RestoreDefaultAtExit() {
    lock (handlerLock) {
      if (handler == null) return;
      handler = null;
      tesseraPINVOKE.TesseraCsSetLogCallback(0, (int)LogLevel.Warning);
    }
  }
}

}
