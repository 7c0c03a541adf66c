// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The safety net for handles nobody closed: one Cleaner thread destroys the
 * native object once its proxy is unreachable. close() runs the same action at
 * once (and only once). The action holds the pointer, never the proxy.
 */
final class NativeCleaner {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicLong LIVE = new AtomicLong();

  private NativeCleaner() {}

  static Cleaner.Cleanable register(Object proxy, long pointer, LongConsumer destroy) {
    LIVE.incrementAndGet();
    return CLEANER.register(proxy, new Release(pointer, destroy));
  }

  /** Native objects owned by proxies and not yet destroyed (for tests). */
  static long liveHandles() {
    return LIVE.get();
  }

  private static final class Release implements Runnable {
    private final long pointer;
    private final LongConsumer destroy;

    Release(long pointer, LongConsumer destroy) {
      this.pointer = pointer;
      this.destroy = destroy;
    }

    @Override
    public void run() {
      destroy.accept(pointer);
      LIVE.decrementAndGet();
    }
  }
}
