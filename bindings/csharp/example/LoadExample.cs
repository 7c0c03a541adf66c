// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Reads one process's shards of a safetensors checkpoint into its own byte
// arrays: the plan says which bytes of the file the process's devices need
// (each replicated tensor read once), and Execute reads exactly those. It
// writes a small checkpoint first (w: U8 [4, 6], b: U8 [6], data byte i is
// i), then loads process 0 of 2 on a 2x2 mesh with the rule w -> (x, y).
using System;
using System.IO;
using System.Text;
using Tessera;

public static class LoadExample {
  const string Header = "{\"w\":{\"dtype\":\"U8\",\"shape\":[4,6],\"data_offsets\":[0,24]}," +
      "\"b\":{\"dtype\":\"U8\",\"shape\":[6],\"data_offsets\":[24,30]}}";

  public static void Main() {
    string path = Path.Combine(Path.GetTempPath(), "tessera-load-example-" + Guid.NewGuid().ToString("N") +
                               ".safetensors");
    try {
      byte[] json = Encoding.UTF8.GetBytes(Header);
      using (var file = new BinaryWriter(File.Create(path))) {
        file.Write((ulong)json.Length);  // little-endian
        file.Write(json);
        for (int i = 0; i < 30; ++i) file.Write((byte)i);
      }
      Load(path);
    } finally {
      File.Delete(path);
    }
  }

  static void Load(string path) {
    using (var checkpoint = new Checkpoint(path))
    using (var mesh = new Mesh(new long[] {2, 2}, new[] {"x", "y"}, new[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}))
    using (var rules = new LayoutMap(mesh, KeyMatch.Full))
    using (var rowsAndColumns = new Layout(new[] {"x", "y"}, mesh))
    using (var options = new ReadOptions()) {
      rules.Set("w", rowsAndColumns);
      // This process is 0 of 2: it owns devices 0 and 1.
      options.SetProcess(0, 2);
      using (var plan = new ReadPlan(checkpoint, rules, options)) {
        Console.WriteLine("process 0 of 2 reads " + plan.TotalBytes() + " of the file's data bytes");
        byte[][] buffers = plan.AllocateBuffers();
        long read = plan.Execute(buffers);
        ReadPiece[] pieces = plan.Pieces();
        for (int i = 0; i < pieces.Length; ++i) {
          Console.WriteLine("device " + pieces[i].Device + " " + checkpoint.Tensor(pieces[i].Tensor).Name + " [" +
                            string.Join(", ", pieces[i].Shape) + "]: [" + string.Join(", ", buffers[i]) + "]");
        }
        Console.WriteLine("read " + read + " bytes");
      }
    }
  }
}
