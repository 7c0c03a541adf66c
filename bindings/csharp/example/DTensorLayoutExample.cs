// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Reads a layout a TF DTensor job printed (str(layout)) and says how a tensor
// of a global shape is split under it. Pass the layout text as the argument,
// or run it without one for a 2x2 CPU mesh's.
using System;
using Tessera;

public static class DTensorLayoutExample {
  const string Printed = "sharding_specs:batch,unsharded, mesh:|batch=2,model=2|0,1,2,3|0,1,2,3|" +
      "/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1," +
      "/job:localhost/replica:0/task:0/device:CPU:2,/job:localhost/replica:0/task:0/device:CPU:3";

  public static void Main(string[] args) {
    string text = args.Length > 0 ? args[0] : Printed;
    long[] globalShape = {8, 6};
    using (var layout = DTensorLayout.Parse(text))
    using (var mesh = layout.Mesh()) {
      Console.WriteLine("specs " + string.Join(",", layout.Specs) + " over " + mesh.NumDims + " mesh dims, " +
                        mesh.NumGlobalIds + " devices");
      Console.WriteLine("global shape [" + string.Join(", ", globalShape) + "]: each device holds [" +
                        string.Join(", ", layout.LocalShapeFromGlobal(globalShape)) + "]");
      Console.WriteLine(layout.ShardVectorText());
      // Printed back byte for byte: what DTensor itself would print.
      Console.WriteLine("round trip exact: " + (layout.ToText() == text));
    }
  }
}
