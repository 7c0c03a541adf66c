// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Receives a client's events (see {@link Client#setEventListener}). It runs on
 * a library thread, one event at a time per client; it must not close the
 * client. Exceptions it throws are printed to System.err and dropped.
 */
@FunctionalInterface
public interface EventListener {
  void onEvent(ClusterEvent event);
}
