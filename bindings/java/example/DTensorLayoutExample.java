// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import org.tessera.DTensorLayout;
import org.tessera.DTensorMesh;

/**
 * Reads a layout a TF DTensor job printed (str(layout)) and says how a tensor
 * of a global shape is split under it. Pass the layout text as the argument,
 * or run it without one for a 2x2 CPU mesh's.
 */
public final class DTensorLayoutExample {
  static final String PRINTED = "sharding_specs:batch,unsharded, mesh:|batch=2,model=2|0,1,2,3|0,1,2,3|"
      + "/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1,"
      + "/job:localhost/replica:0/task:0/device:CPU:2,/job:localhost/replica:0/task:0/device:CPU:3";

  public static void main(String[] args) {
    String text = args.length > 0 ? args[0] : PRINTED;
    long[] globalShape = {8, 6};
    try (DTensorLayout layout = DTensorLayout.parse(text); DTensorMesh mesh = layout.mesh()) {
      System.out.println("specs " + String.join(",", layout.specs()) + " over " + mesh.numDims()
          + " mesh dims, " + mesh.numGlobalIds() + " devices");
      System.out.println("global shape " + java.util.Arrays.toString(globalShape) + ": each device holds "
          + java.util.Arrays.toString(layout.localShapeFromGlobal(globalShape)));
      System.out.println(layout.shardVectorText());
      // Printed back byte for byte: what DTensor itself would print.
      System.out.println("round trip exact: " + layout.toText().equals(text));
    }
  }
}
