// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Receives the library's log messages (see {@link Tessera#setLogHandler}). It
 * runs on the thread that logs: any thread, library threads included, possibly
 * several at once; it must not call setLogHandler. Exceptions it throws are
 * printed to System.err and dropped.
 */
@FunctionalInterface
public interface LogHandler {
  void onLog(LogLevel level, String message);
}
