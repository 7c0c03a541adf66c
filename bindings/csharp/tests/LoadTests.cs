// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// ReadPlan: process 0 of 2 of a checkpoint whose data byte i is i: w U8
// [4, 6] (data [0, 24)) with the rule w -> (x, y) on a 2x2 mesh, and b U8 [6]
// (data [24, 30)) with no rule (replicated). The process owns devices 0
// (x0, y0) and 1 (x0, y1): w's rows [0, 2), columns [0, 3) and [3, 6), and b
// on each.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Tessera.Tests {

public static class LoadTests {
  internal const string Header = "{\"w\":{\"dtype\":\"U8\",\"shape\":[4,6],\"data_offsets\":[0,24]}," +
      "\"b\":{\"dtype\":\"U8\",\"shape\":[6],\"data_offsets\":[24,30]}}";

  /* Each piece's bytes, numpy's array[box].tobytes() of the bytes written. */
  static readonly byte[][] Shards = {
      new byte[] {0, 1, 2, 6, 7, 8}, new byte[] {24, 25, 26, 27, 28, 29},
      new byte[] {3, 4, 5, 9, 10, 11}, new byte[] {24, 25, 26, 27, 28, 29}};

  /* Runs `test` on the plan, with `configure` applied to its options after SetProcess(0, 2). */
  static void WithPlan(Action<ReadOptions> configure, Action<ReadPlan> test) {
    string path = CheckpointTests.WriteSafetensors("model.safetensors", Header, 30);
    try {
      string[] cpus = Enumerable.Range(0, 4).Select(i => "cpu:" + i).ToArray();
      using (var mesh = new Mesh(new long[] {2, 2}, new[] {"x", "y"}, cpus))
      using (var rules = new LayoutMap(mesh, KeyMatch.Full))
      using (var options = new ReadOptions())
      using (var checkpoint = new Checkpoint(path)) {
        using (var rowsAndColumns = new Layout(new[] {"x", "y"}, mesh)) rules.Set("w", rowsAndColumns);
        options.SetProcess(0, 2);
        configure(options);
        using (var plan = new ReadPlan(checkpoint, rules, options)) test(plan);
      }
    } finally {
      CheckpointTests.Remove(path);
    }
  }

  static void EqualShards(byte[][] got, string what) {
    Assert.Equal(Shards.Length, got.Length, what + ": pieces");
    for (int i = 0; i < Shards.Length; ++i) Assert.Equal(Shards[i], got[i], what + ": piece " + i);
  }

  [Test]
  public static void AReadPlanHasOnePiecePerDeviceOfTheProcessAndTensor() {
    WithPlan(options => {}, plan => {
      var pieces = plan.Pieces();
      Assert.Equal(new long[] {0, 0, 1, 1}, pieces.Select(p => p.Device).ToArray(), "devices");
      Assert.Equal(new long[] {0, 1, 0, 1}, pieces.Select(p => p.Tensor).ToArray(), "tensors");
      Assert.Equal(new long[] {0, 2, 0, 3}, pieces[0].Ranges, "device 0's w");
      Assert.Equal(new long[] {0, 2, 3, 6}, pieces[2].Ranges, "device 1's w");
      Assert.Equal(new long[] {0, 6}, pieces[3].Ranges, "device 1's b");
      Assert.Equal(new long[] {2, 3}, pieces[2].Shape, "device 1's w shape");
      Assert.Equal(new long[] {6, 6, 6, 6}, pieces.Select(p => p.Size).ToArray(), "sizes");
    });
  }

  [Test]
  public static void AReadPlanReadsEachFileRangeOnceWithoutGaps() {
    WithPlan(options => options.SetCoalesceGap(0), plan => {
      long start = 8 + Header.Length;
      Assert.Equal(new[] {start, start + 12, start + 24, start + 30}, plan.FileRanges(0), "ranges");
      Assert.Equal(18L, plan.TotalBytes(), "total");
    });
  }

  [Test]
  public static void ExecuteFillsEachArrayWithItsShardsBytes() {
    WithPlan(options => {}, plan => {
      byte[][] buffers = plan.AllocateBuffers();
      Assert.Equal(30L, plan.Execute(buffers), "bytes read");
      EqualShards(buffers, "buffers");
    });
  }

  [Test]
  public static void ExecuteFillsMemoryOfSlicesOfOneArray() {
    WithPlan(options => {}, plan => {
      var all = new byte[24];
      var buffers = new Memory<byte>[4];
      for (int i = 0; i < 4; ++i) buffers[i] = new Memory<byte>(all, 6 * i, 6);
      Assert.Equal(30L, plan.Execute(buffers), "bytes read");
      EqualShards(buffers.Select(m => m.ToArray()).ToArray(), "memory");
    });
  }

  [Test]
  public static void ABufferOfTheWrongSizeIsInvalidArgumentNamingIt() {
    WithPlan(options => {}, plan => {
      byte[][] buffers = plan.AllocateBuffers();
      buffers[1] = new byte[5];
      var e = Assert.Throws(Code.InvalidArgument, "", () => plan.Execute(buffers));
      Assert.Equal("Argument 'sizes[1]' is 5; expected 6, the bytes of piece 1", e.Message, "message");
    });
  }

  [Test]
  public static void AProgressThatReturnsFalseCancelsTheLoad() {
    WithPlan(options => {
      options.SetCoalesceGap(0);
      options.SetThreads(1);
    }, plan => {
      var e = Assert.Throws(Code.Cancelled, "", () => plan.Execute(plan.AllocateBuffers(), (done, total) => false));
      Assert.Equal("The progress callback cancelled the load after 12 of 18 bytes", e.Message, "message");
    });
  }

  [Test]
  public static void AConsumerGetsEveryByteOfEveryPieceOnce() {
    WithPlan(options => {}, plan => {
      var got = Enumerable.Range(0, 4).Select(i => Enumerable.Repeat((byte)0xff, 6).ToArray()).ToArray();
      var progress = new List<long>();
      bool twice = false;
      long read = plan.Execute((piece, offset, bytes) => {
        lock (got) {
          for (int i = 0; i < bytes.Length; ++i) {
            twice |= got[piece][offset + i] != 0xff;
            got[piece][offset + i] = bytes[i];
          }
        }
        return true;
      }, (done, total) => {
        progress.Add(done);
        return true;
      });
      Assert.Equal(30L, read, "bytes read");
      Assert.True(!twice, "no byte delivered twice");
      EqualShards(got, "delivered");
      Assert.Equal(30L, progress.Last(), "last progress");
    });
  }

  [Test]
  public static void AConsumersExceptionCancelsTheLoadAndIsThrown() {
    WithPlan(options => options.SetThreads(1), plan => {
      var boom = new InvalidOperationException("boom");
      try {
        plan.Execute((piece, offset, bytes) => { throw boom; });
        throw new AssertionException("expected the consumer's exception, nothing thrown");
      } catch (InvalidOperationException e) {
        Assert.True(ReferenceEquals(boom, e), "the consumer's own exception");
      }
    });
  }
}

}  // namespace Tessera.Tests
