// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Saves a sharded checkpoint on one mesh and restores it on another. The
// save: w, U8 [4, 6] with element (r, c) = 10r + c, on the mesh x=2, y=2
// under (x, y), by a job of 2 processes (both run here, one after the other):
// each writes the shards its devices hold, process 0 then writes the index.
// The restore: one process on the mesh d=3 with w under (None, d), so each
// device gets two whole columns, read from both processes' files.
using System;
using System.IO;
using System.Linq;
using Tessera;

public static class SaveRestoreExample {
  static readonly long[] Shape = {4, 6};

  public static void Main() {
    string dir = Path.Combine(Path.GetTempPath(), "tessera-save-restore-example-" + Guid.NewGuid().ToString("N"));
    try {
      byte[] w = Enumerable.Range(0, 24).Select(i => (byte)(10 * (i / 6) + i % 6)).ToArray();
      // Process 1 first: process 0's Finish checks that every process wrote.
      Save(dir, w, 1);
      Save(dir, w, 0);
      Restore(dir);
    } finally {
      if (Directory.Exists(dir)) Directory.Delete(dir, true);
    }
  }

  static void Save(string dir, byte[] w, long process) {
    using (var mesh = new Mesh(new long[] {2, 2}, new[] {"x", "y"}, new[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}))
    using (var rowsAndColumns = new Layout(new[] {"x", "y"}, mesh))
    using (var sharding = new Sharding(rowsAndColumns, Shape, ShardMode.Strict))
    using (var options = new SaveOptions()) {
      options.SetProcess(process, 2);
      using (var saver = new CheckpointSaver(dir, options)) {
        saver.AddTensor("w", "U8", rowsAndColumns, Shape);
        // This process's devices are 2P and 2P+1; each shard is its box of w as row-major bytes.
        byte[][] shards = sharding.Scatter(w, 1);
        for (long device = 2 * process; device < 2 * process + 2; ++device) {
          saver.SetShard(0, device, shards[device]);
        }
        saver.Write();
        if (process == 0) saver.Finish();
      }
    }
  }

  static void Restore(string dir) {
    using (var index = new CheckpointIndex(dir))
    using (var mesh = new Mesh(new long[] {3}, new[] {"d"}, new[] {"cpu:0", "cpu:1", "cpu:2"}))
    using (var rules = new LayoutMap(mesh, KeyMatch.Full))
    using (var columns = new Layout(new[] {null, "d"}, mesh)) {
      rules.Set("w", columns);
      foreach (SavedTensor tensor in index.Tensors()) {
        Console.WriteLine("saved " + tensor + " in " + index.NumFiles() + " files");
      }
      using (var plan = index.RestorePlan(rules)) {
        byte[][] buffers = plan.AllocateBuffers();
        long read = plan.Execute(buffers);
        ReadPiece[] pieces = plan.Pieces();
        for (int i = 0; i < pieces.Length; ++i) {
          Console.WriteLine("device " + pieces[i].Device + " w [" + string.Join(", ", pieces[i].Ranges) + "]: [" +
                            string.Join(", ", buffers[i]) + "]");
        }
        Console.WriteLine("read " + read + " bytes");
      }
    }
  }
}
