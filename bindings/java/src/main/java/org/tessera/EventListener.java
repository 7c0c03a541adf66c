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
