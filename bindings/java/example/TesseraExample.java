// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import java.util.Arrays;

import org.tessera.Distribution;
import org.tessera.KeyMatch;
import org.tessera.Layout;
import org.tessera.LayoutMap;
import org.tessera.Mesh;
import org.tessera.ShardMode;
import org.tessera.Sharding;

/**
 * A 2 x 4 mesh of CPU devices, a layout map, a model-parallel distribution,
 * and the slice of one variable each device holds.
 *
 * Run: java -cp tessera.jar:. -Djava.library.path=DIR_OF_libtessera_jni TesseraExample
 */
public final class TesseraExample {
  public static void main(String[] args) {
    String[] devices = new String[8];
    for (int i = 0; i < devices.length; ++i) devices[i] = "cpu:" + i;

    // Every handle is AutoCloseable; try-with-resources frees it at once.
    try (Mesh mesh = new Mesh(new long[] {2, 4}, new String[] {"batch", "model"}, devices);
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.SEARCH);
         Layout columns = new Layout(new String[] {null, "model"}, null);
         Layout rows = new Layout(new String[] {"model", null}, null)) {
      rules.set(".*dense.*kernel", columns);   // Python re patterns, re.search semantics
      rules.set(".*embedding", rows);

      try (Distribution distribution = Distribution.modelParallel(rules, "batch", null);
           Layout kernel = distribution.variableLayout("model/dense_1/kernel",
                                                       new long[] {512, 1024}, null);
           Sharding sharding = new Sharding(kernel, new long[] {512, 1024}, ShardMode.STRICT)) {
        System.out.println(mesh);
        System.out.println(distribution);
        System.out.println("dense_1/kernel: " + kernel.toPartitionSpec());
        for (long device = 0; device < sharding.numDevices(); ++device) {
          // [start, stop) per dimension: {start0, stop0, start1, stop1}.
          System.out.println("  device " + device + " holds "
                             + Arrays.toString(sharding.deviceRanges(device)));
        }
      }
    }
  }
}
