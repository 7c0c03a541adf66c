// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import java.util.Arrays;

import org.tessera.KeyMatch;
import org.tessera.Layout;
import org.tessera.LayoutMap;
import org.tessera.Mesh;

/**
 * The Java side of the binding's overhead benchmark: the layout map and
 * lookups of layout_map_loop.c (and a call without arguments, mesh.numAxes(), for
 * the bare JNI transition), timed the same way (median of 15 rounds of
 * 200,000 calls after two warm-up rounds), printed as "<name> <ns per call>".
 */
public final class LayoutMapBench {
  private static final int RULES = 50;
  private static final int ROUNDS = 15;
  private static final int CALLS = 200_000;

  public static void main(String[] args) {
    String[][] probes = {
        {"find/exact", "layer_7/kernel"},
        {"find/regex", "model/block_7/attention/bias"},
        {"find/none", "model/unknown/weights"},
        {"get/exact", "layer_7/kernel"},
        {"mesh/rank", ""}};
    String[] devices = new String[8];
    for (int i = 0; i < 8; ++i) devices[i] = "cpu:" + i;
    long sink = 0;
    try (Mesh mesh = new Mesh(new long[] {2, 4}, new String[] {"batch", "model"}, devices);
         LayoutMap map = new LayoutMap(mesh, KeyMatch.SEARCH);
         Layout layout = new Layout(new String[] {null, "model"}, null)) {
      for (int i = 0; i < RULES; ++i) {
        map.set("layer_" + i + "/kernel", layout);
        map.set(".*block_" + i + "/.*bias", layout);
      }
      // Every call site compiled before any is timed.
      for (int i = 0; i < 5 * CALLS; ++i) {
        sink += map.find(probes[i % 3][1]);
        try (Layout found = map.get(probes[3][1])) {
          sink += found == null ? 0 : 1;
        }
      }
      System.gc();
      for (String[] probe : probes) {
        boolean get = probe[0].startsWith("get");
        boolean rank = probe[0].equals("mesh/rank");
        String path = probe[1];
        double[] rounds = new double[ROUNDS];
        for (int r = -2; r < ROUNDS; ++r) {
          long start = System.nanoTime();
          for (int i = 0; i < CALLS; ++i) {
            if (rank) {
              sink += mesh.numAxes();
            } else if (get) {
              try (Layout found = map.get(path)) {
                sink += found == null ? 0 : 1;
              }
            } else {
              sink += map.find(path);
            }
          }
          if (r >= 0) rounds[r] = (double) (System.nanoTime() - start) / CALLS;
        }
        Arrays.sort(rounds);
        System.out.printf("%s %.1f%n", probe[0], rounds[ROUNDS / 2]);
      }
    }
    if (sink == 0) System.exit(1);
  }
}
