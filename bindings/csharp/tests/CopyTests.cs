// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Host scatter and gather (tessera/copy.h) through the binding: a 4x6 array
// on a 2x4 mesh, rows sharded over "x", columns replicated over "y".
using System;
using System.Linq;

namespace Tessera.Tests {

public static class CopyTests {
  static readonly string[] Devs8 = Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray();
  static readonly long[] Shape = {4, 6};

  static Sharding RowsOverX() {
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Devs8))
    using (var layout = new Layout(new[] {"x", null}, mesh)) {
      return new Sharding(layout, Shape, ShardMode.Strict);
    }
  }

  static int[] Global() { return Enumerable.Range(0, 24).ToArray(); }

  [Test]
  public static void ScatterGivesEachDeviceItsRows() {
    using (var sharding = RowsOverX()) {
      int[][] shards = sharding.Scatter(Global());
      Assert.Equal(8, shards.Length, "one shard per device");
      // Device 5 is at mesh (1, 1): rows 2:4, every column.
      Assert.Equal(new long[] {2, 4, 0, 6}, sharding.DeviceRanges(5), "device 5's ranges");
      Assert.Equal(Enumerable.Range(12, 12).ToArray(), shards[5], "device 5's shard");
      Assert.Equal(Enumerable.Range(0, 12).ToArray(), shards[2], "device 2's shard");
    }
  }

  [Test]
  public static void ScatterThenGatherIsTheInput() {
    using (var sharding = RowsOverX())
    using (var options = new CopyOptions()) {
      options.SetThreads(4);
      options.SetVerifyReplicas(true);
      byte[] global = Enumerable.Range(0, 96).Select(i => (byte)(i * 7)).ToArray();
      byte[][] shards = sharding.Scatter(global, 4, options);
      Assert.Equal(48, shards[7].Length, "device 7's shard bytes");
      Assert.Equal(global, sharding.Gather(shards, 4, global.Length, options), "gathered");
    }
  }

  [Test]
  public static void TypedGatherIsTheTypedInput() {
    using (var sharding = RowsOverX()) {
      double[] global = Enumerable.Range(0, 24).Select(i => i * 0.5).ToArray();
      Assert.Equal(global, sharding.Gather(sharding.Scatter(global), global.Length), "gathered doubles");
    }
  }

  [Test]
  public static void GatherWithAShardOfTheWrongSizeIsInvalidArgument() {
    using (var sharding = RowsOverX()) {
      byte[][] shards = sharding.Scatter(new byte[96], 4);
      shards[3] = new byte[47];
      Assert.Throws(Code.InvalidArgument, "Argument 'shards[3]' must have 48 bytes (device 3's shard), got 47 bytes",
                    () => sharding.Gather(shards, 4, 96));
      Assert.Throws(Code.InvalidArgument, "Argument 'shards' must have 8 entries (one per device), got 7",
                    () => sharding.Gather(shards.Take(7).ToArray(), 4, 96));
    }
  }

  [Test]
  public static void ScatterOfTheWrongGlobalSizeIsTheLibrarysInvalidArgument() {
    using (var sharding = RowsOverX()) {
      Assert.Throws(Code.InvalidArgument, "global_size", () => sharding.Scatter(new byte[95], 4));
    }
  }

  [Test]
  public static void VerifiedGatherOfDifferingReplicasIsDataLoss() {
    using (var sharding = RowsOverX())
    using (var options = new CopyOptions()) {
      options.SetVerifyReplicas(true);
      int[][] shards = sharding.Scatter(Global());
      shards[1][0] = -1;  // device 1 holds a replica of device 0's rows
      Assert.Throws(Code.DataLoss, "The shard of device 1 (replica 1) differs from the shard of device 0 (replica 0) " +
                    "at byte offset 0 of the shard buffer (255 vs 0)", () => sharding.Gather(shards, 24, options));
      options.SetVerifyReplicas(false);
      Assert.Equal(Global(), sharding.Gather(shards, 24, options), "unverified: replica 0 is read");
    }
  }

  [Test]
  public static void NonPrimitiveElementsAreInvalidArgument() {
    using (var sharding = RowsOverX()) {
      Assert.Throws(Code.InvalidArgument, "must be a primitive type", () => sharding.Scatter(new decimal[24]));
    }
  }

  [Test]
  public static void CopyOptionsAreDisposedOnce() {
    var options = new CopyOptions();
    Assert.Throws(Code.OutOfRange, "process_index", () => options.SetProcessIndex(-2));
    BindingTests.DisposeTwice(options);
  }
}

}
