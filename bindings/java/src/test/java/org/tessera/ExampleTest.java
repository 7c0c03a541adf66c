package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The example a user copies runs and prints the plan. (ClusterExample: ClusterTest.) */
class ExampleTest {
  @Test
  void tesseraExamplePrintsEachDevicesSlice() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      // The example lives in the unnamed package, out of reach of an import.
      Class.forName("TesseraExample").getMethod("main", String[].class)
          .invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(out);
    }
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
    assertEquals(expected.toString(), captured.toString(StandardCharsets.UTF_8));
  }

  @Test
  void dtensorLayoutExampleSaysWhatEachDeviceHolds() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      Class.forName("DTensorLayoutExample").getMethod("main", String[].class)
          .invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(out);
    }
    assertEquals("specs batch,unsharded over 2 mesh dims, 4 devices\n"
        + "global shape [8, 6]: each device holds [4, 6]\n"
        + "shards:[(1,1),(1,1),(2,1),(2,1)] num_shards_per_dim:(2,1)\n"
        + "round trip exact: true\n", captured.toString(StandardCharsets.UTF_8));
  }
}
