// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/** Called by the JNI trampoline on the thread that logs. */
final class LogDispatch {
  /** Set while this thread runs a handler: setLogHandler from inside one is refused. */
  private static final ThreadLocal<Boolean> IN_HANDLER = ThreadLocal.withInitial(() -> false);

  private LogDispatch() {}

  static void dispatch(LogHandler handler, int level, byte[] message) {
    IN_HANDLER.set(true);
    try {
      handler.onLog(levelOf(level), Utf8.decode(message));
    } catch (Throwable t) {
      // Nothing may propagate into the library's thread.
      System.err.println("tessera: log handler threw " + t);
    } finally {
      IN_HANDLER.set(false);
    }
  }

  static boolean inHandler() {
    return IN_HANDLER.get();
  }

  private static LogLevel levelOf(int value) {
    try {
      return LogLevel.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return LogLevel.ERROR;
    }
  }
}
