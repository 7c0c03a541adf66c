// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The examples a user copies run and print what they say. (ClusterExample: ClusterTest.) */
class ExampleTest {
  /** What the example's main prints without arguments. */
  private static String outputOf(String example) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      // The examples live in the unnamed package, out of reach of an import.
      Class.forName(example).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(out);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void tesseraExamplePrintsEachDevicesSlice() throws Exception {
    String mesh = "<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>";
    StringBuilder expected = new StringBuilder()
        .append(mesh).append('\n')
        .append("<ModelParallel device_mesh=").append(mesh).append(">\n")
        .append("dense_1/kernel: P(None, 'model')\n");
    for (int device = 0; device < 8; ++device) {
      long column = device % 4 * 256;
      expected.append("  device ").append(device).append(" holds [0, 512, ").append(column)
          .append(", ").append(column + 256).append("]\n");
    }
    assertEquals(expected.toString(), outputOf("TesseraExample"));
  }

  @Test
  void dtensorLayoutExampleSaysWhatEachDeviceHolds() throws Exception {
    assertEquals("specs batch,unsharded over 2 mesh dims, 4 devices\n"
        + "global shape [8, 6]: each device holds [4, 6]\n"
        + "shards:[(1,1),(1,1),(2,1),(2,1)] num_shards_per_dim:(2,1)\n"
        + "round trip exact: true\n", outputOf("DTensorLayoutExample"));
  }

  @Test
  void loadExamplePrintsEachDevicesShard() throws Exception {
    assertEquals("process 0 of 2 reads 30 of the file's data bytes\n"
        + "device 0 w [2, 3]: [0, 1, 2, 6, 7, 8]\n"
        + "device 0 b [6]: [24, 25, 26, 27, 28, 29]\n"
        + "device 1 w [2, 3]: [3, 4, 5, 9, 10, 11]\n"
        + "device 1 b [6]: [24, 25, 26, 27, 28, 29]\n"
        + "read 30 bytes\n", outputOf("LoadExample"));
  }

  @Test
  void saveRestoreExampleRestoresTheBlocksAsColumns() throws Exception {
    assertEquals("saved by 2 processes: w F32[4, 6] in 4 pieces\n"
        + "device 0 holds w[0, 4, 0, 2]: [0.0, 1.0, 6.0, 7.0, 12.0, 13.0, 18.0, 19.0]\n"
        + "device 1 holds w[0, 4, 2, 4]: [2.0, 3.0, 8.0, 9.0, 14.0, 15.0, 20.0, 21.0]\n"
        + "device 2 holds w[0, 4, 4, 6]: [4.0, 5.0, 10.0, 11.0, 16.0, 17.0, 22.0, 23.0]\n"
        + "read 96 bytes\n", outputOf("SaveRestoreExample"));
  }
}
