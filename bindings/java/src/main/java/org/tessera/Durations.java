// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.time.Duration;

/**
 * Timeouts and intervals are java.time.Duration in Java and milliseconds in
 * C. A Duration past what a long counts in milliseconds (about 292 million
 * years) waits as long as C can; negative ones pass through, so the library
 * rejects them with its own message.
 */
final class Durations {
  private Durations() {}

  /** `duration` in whole milliseconds; `name` is the C argument, for the error. */
  static long millis(Duration duration, String name) {
    if (duration == null) {
      throw new TesseraException(Code.INVALID_ARGUMENT,
          "Argument '" + name + "' must be a java.time.Duration, got null");
    }
    try {
      return duration.toMillis();
    } catch (ArithmeticException overflow) {
      return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
