// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Told the bytes a load has read so far and its total, after each block of
 * reads, on a loader thread, never concurrently with itself. Returning false
 * cancels the load; so does an exception, which execute then throws.
 */
@FunctionalInterface
public interface LoadProgress {
  boolean update(long bytesDone, long bytesTotal);
}
