// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

/**
 * Handles dropped without close() are destroyed by the Cleaner's thread, and
 * memory comes back: 1,000,000 handles, resident size before and after.
 */
class StressTest {
  private static final String[] AXES = {"x", null};
  private static final int BATCH = 100_000;

  @Test
  void millionDroppedHandlesLeaveMemoryFlat() throws Exception {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      long baseline = NativeCleaner.liveHandles();
      // Warm-up: the heap is fixed (-Xms = -Xmx, pre-touched); this settles
      // the JIT, malloc's arenas and the Cleaner's own structures.
      churn(mesh, 2 * BATCH, baseline);
      long before = residentKiB();

      long start = System.nanoTime();
      churn(mesh, 1_000_000, baseline);
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      long after = residentKiB();

      System.out.printf("java stress: 1000000 handles in %d s, VmRSS before %d KiB, after %d KiB"
                        + " (%+.1f%%)%n", seconds, before, after, 100.0 * (after - before) / before);
      assertEquals(baseline, NativeCleaner.liveHandles());
      assertTrue(after <= before * 1.10,
                 "VmRSS grew from " + before + " KiB to " + after + " KiB");
    }
  }

  /**
   * Creates `count` layouts (a multiple of BATCH; each retains the mesh) and
   * drops them unclosed. After each batch the collector runs and the Cleaner
   * catches up: its backlog (native objects not yet destroyed) stays bounded,
   * so the peak of native memory, which malloc keeps resident, is the same in
   * every batch.
   */
  private static void churn(Mesh mesh, int count, long baseline) throws InterruptedException {
    for (int done = 0; done < count; done += BATCH) {
      assertEquals(2L * BATCH, dropBatch(mesh));
      drain(baseline);
    }
  }

  /**
   * BATCH layouts made and dropped; returns the sum of their ranks. A method
   * of its own: an interpreted frame keeps its last local alive, so the drain
   * must not run inside the loop's frame (it waited 30 s for that layout).
   */
  private static long dropBatch(Mesh mesh) {
    long checksum = 0;
    for (int i = 0; i < BATCH; ++i) {
      Layout layout = new Layout(AXES, mesh);
      checksum += layout.numDims();
    }
    return checksum;
  }

  /** Lets the garbage collector and the Cleaner destroy every dropped handle (bounded wait). */
  private static void drain(long baseline) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (NativeCleaner.liveHandles() > baseline && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(10);
    }
    assertEquals(baseline, NativeCleaner.liveHandles(), "handles left after 30 s");
  }

  private static long residentKiB() throws IOException {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS in /proc/self/status");
  }
}
