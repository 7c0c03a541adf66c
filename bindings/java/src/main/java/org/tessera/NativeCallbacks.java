// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * The callbacks of one native call that runs them (a load's loader threads,
 * a save's fill): nothing may propagate into the native code, so the first
 * exception is kept, the call cancelled, and the exception thrown by the
 * Java method once the native call returns.
 */
abstract class NativeCallbacks {
  private Throwable thrown;

  /** Keeps `t` if it is the first; the callback then answers false (cancel). */
  final synchronized void keep(Throwable t) {
    if (thrown == null) thrown = t;
  }

  /** The call failed with `failure`: a callback's exception, if one threw, comes first. */
  final synchronized RuntimeException rethrow(RuntimeException failure) {
    if (thrown == null) return failure;
    thrown.addSuppressed(failure);
    if (thrown instanceof RuntimeException) return (RuntimeException) thrown;
    if (thrown instanceof Error) throw (Error) thrown;
    return new RuntimeException(thrown);
  }
}
