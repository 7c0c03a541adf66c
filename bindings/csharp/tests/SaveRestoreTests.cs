// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// CheckpointSaver, CheckpointIndex and restore plans (issue 13). The saved
// model, on the mesh x=2, y=4 (devices 0..7, row-major) by 2 processes
// (process 0: devices 0-3, process 1: devices 4-7):
//   w: I32 [4, 8], element (r, c) = 8r + c, under (x, y): device (i, j) holds
//      rows [2i, 2i+2), columns [2j, 2j+2), 16 bytes, each stored once;
//   b: U8 [8], element k = 100 + k, under (y): device (i, j) holds [2j, 2j+2),
//      replicated over x, so only devices 0-3 (process 0) store it.
// It is restored by 1 process on the mesh r=2, c=2 with w under (c, r) (rows
// by c, columns by r) and b without a rule (replicated).
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Tessera.Tests {

public static class SaveRestoreTests {
  static readonly string[] Names = {"w", "b"};
  static readonly string[] Dtypes = {"I32", "U8"};
  static readonly long[][] Shapes = {new long[] {4, 8}, new long[] {8}};
  static readonly int[] ElementSizes = {4, 1};
  static readonly byte[][] Globals = {
      Enumerable.Range(0, 32).SelectMany(i => BitConverter.GetBytes(i)).ToArray(),
      Enumerable.Range(100, 8).Select(k => (byte)k).ToArray()};

  /* The bytes of `box` ([start0, stop0, ...]) of the row-major tensor
     `global`: numpy's global[box].tobytes(). */
  internal static byte[] Slice(byte[] global, long[] shape, int elementSize, long[] box) {
    var output = new List<byte>();
    int rank = shape.Length;
    var index = new long[rank];
    for (int d = 0; d < rank; ++d) {
      if (box[2 * d] >= box[2 * d + 1]) return new byte[0];
      index[d] = box[2 * d];
    }
    while (true) {
      long flat = 0;
      for (int d = 0; d < rank; ++d) flat = flat * shape[d] + index[d];
      for (int k = 0; k < elementSize; ++k) output.Add(global[flat * elementSize + k]);
      int dim = rank - 1;
      while (dim >= 0 && ++index[dim] == box[2 * dim + 1]) {
        index[dim] = box[2 * dim];
        --dim;
      }
      if (dim < 0) return output.ToArray();
    }
  }

  /* Runs `test` with a new directory's path (not created: the first write
     creates it), then removes the directory. */
  static void WithDirectory(Action<string> test) {
    string dir = Path.Combine(Path.GetTempPath(), "tessera-cs-save-" + Guid.NewGuid().ToString("N"));
    try {
      test(dir);
    } finally {
      if (Directory.Exists(dir)) Directory.Delete(dir, true);
    }
  }

  static Mesh SaveMesh() {
    return new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray());
  }

  /* Runs `test` with a saver of process `process` of `numProcesses` that has
     both tensors added, then disposes it. */
  static void WithSaver(string dir, long process, long numProcesses, Action<SaveOptions> configure,
                        Action<CheckpointSaver> test) {
    using (var mesh = SaveMesh())
    using (var both = new Layout(new[] {"x", "y"}, mesh))
    using (var columns = new Layout(new[] {"y"}, mesh))
    using (var options = new SaveOptions()) {
      options.SetProcess(process, numProcesses);
      configure(options);
      using (var saver = new CheckpointSaver(dir, options)) {
        var layouts = new[] {both, columns};
        for (int t = 0; t < 2; ++t) saver.AddTensor(Names[t], Dtypes[t], layouts[t], Shapes[t]);
        test(saver);
      }
    }
  }

  /* Hands every shard that the devices of `process` of `numProcesses` hold
     (replicas included) to `saver`. */
  static void SetShards(CheckpointSaver saver, long process, long numProcesses) {
    using (var mesh = SaveMesh())
    using (var both = new Layout(new[] {"x", "y"}, mesh))
    using (var columns = new Layout(new[] {"y"}, mesh)) {
      var layouts = new[] {both, columns};
      long perProcess = 8 / numProcesses;
      for (int t = 0; t < 2; ++t) {
        using (var sharding = new Sharding(layouts[t], Shapes[t], ShardMode.Strict)) {
          for (long d = process * perProcess; d < (process + 1) * perProcess; ++d) {
            saver.SetShard(t, d, Slice(Globals[t], Shapes[t], ElementSizes[t], sharding.DeviceRanges(d)));
          }
        }
      }
    }
  }

  /* The fill of a streamed save: the same bytes SetShards hands. */
  static bool Fill(long tensor, long device, ReadOnlySpan<long> ranges, long offset, Span<byte> output) {
    byte[] shard = Slice(Globals[tensor], Shapes[tensor], ElementSizes[tensor], ranges.ToArray());
    new ReadOnlySpan<byte>(shard, checked((int)offset), output.Length).CopyTo(output);
    return true;
  }

  /* Saves the model into `dir` from 2 processes, process 1 first, each from
     buffers (streamed: from Fill); process 0 finishes. */
  static void SaveModel(string dir, bool streamed) {
    foreach (long process in new long[] {1, 0}) {
      WithSaver(dir, process, 2, options => {}, saver => {
        if (streamed) {
          saver.Stream(Fill);
        } else {
          SetShards(saver, process, 2);
          saver.Write();
        }
        if (process == 0) saver.Finish();
      });
    }
  }

  static void WithSavedModel(Action<string> test) {
    WithDirectory(dir => {
      SaveModel(dir, false);
      test(dir);
    });
  }

  /* Runs `test` on the restore plan of process 0 of 1 on the mesh r=2, c=2,
     w under (c, r); request may be null (every tensor). */
  static void WithRestorePlan(string dir, Action<RestoreRequest> request, Action<ReadPlan> test) {
    using (var index = new CheckpointIndex(dir))
    using (var mesh = new Mesh(new long[] {2, 2}, new[] {"r", "c"}, new[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}))
    using (var rules = new LayoutMap(mesh, KeyMatch.Full))
    using (var transposed = new Layout(new[] {"c", "r"}, mesh))
    using (var options = new ReadOptions()) {
      rules.Set("w", transposed);
      options.SetCoalesceGap(0);
      if (request == null) {
        using (var plan = index.RestorePlan(rules, options)) test(plan);
      } else {
        using (var wanted = new RestoreRequest()) {
          request(wanted);
          using (var plan = index.RestorePlan(rules, wanted, options)) test(plan);
        }
      }
    }
  }

  [Test]
  public static void TheIndexListsTheFilesOfBothProcesses() {
    WithSavedModel(dir => {
      using (var index = new CheckpointIndex(dir)) {
        Assert.Equal(2L, index.NumProcesses(), "processes");
        Assert.Equal(new[] {Path.Combine(dir, "process-00000-of-00002.safetensors"),
                            Path.Combine(dir, "process-00001-of-00002.safetensors")}, index.Files(), "files");
      }
    });
  }

  [Test]
  public static void TheIndexHoldsEachDistinctShardOnceInItsFirstHoldersFile() {
    WithSavedModel(dir => {
      using (var index = new CheckpointIndex(dir)) {
        SavedTensor[] tensors = index.Tensors();
        Assert.Equal(new[] {"w I32[4, 8] 8 pieces", "b U8[8] 4 pieces"}, tensors.Select(t => t.ToString()).ToArray(),
                     "tensors");
        var w = tensors[0].Pieces;
        for (int d = 0; d < 8; ++d) {
          long i = d / 4, j = d % 4;
          Assert.Equal(new[] {2 * i, 2 * i + 2, 2 * j, 2 * j + 2}, w[d].Ranges, "w piece " + d);
          Assert.Equal(i, w[d].File, "w piece " + d + "'s file");
        }
        var b = tensors[1].Pieces;
        Assert.Equal(new long[] {0, 2, 2, 4, 4, 6, 6, 8}, b.SelectMany(p => p.Ranges).ToArray(), "b pieces");
        Assert.Equal(new long[] {0, 0, 0, 0}, b.Select(p => p.File).ToArray(), "b's files: process 0 only");
      }
    });
  }

  [Test]
  public static void ARestoreOnAnotherMeshAndLayoutHasOnePiecePerDeviceAndTensor() {
    WithSavedModel(dir => WithRestorePlan(dir, null, plan => {
      ReadPiece[] pieces = plan.Pieces();
      Assert.Equal(new long[] {0, 0, 1, 1, 2, 2, 3, 3}, pieces.Select(p => p.Device).ToArray(), "devices");
      Assert.Equal(new long[] {0, 1, 0, 1, 0, 1, 0, 1}, pieces.Select(p => p.Tensor).ToArray(), "tensors");
      Assert.Equal(new long[] {0, 2, 0, 4}, pieces[0].Ranges, "device 0's w: rows by c=0, columns by r=0");
      Assert.Equal(new long[] {2, 4, 0, 4}, pieces[2].Ranges, "device 1's w: c=1, r=0");
      Assert.Equal(new long[] {0, 2, 4, 8}, pieces[4].Ranges, "device 2's w: c=0, r=1");
      Assert.Equal(new long[] {2, 4, 4, 8}, pieces[6].Ranges, "device 3's w: c=1, r=1");
      Assert.Equal(new long[] {0, 8}, pieces[7].Ranges, "device 3's b: replicated");
      Assert.Equal(new long[] {32, 8, 32, 8, 32, 8, 32, 8}, pieces.Select(p => p.Size).ToArray(), "sizes");
    }));
  }

  [Test]
  public static void ARestoreReadsEveryStoredByteItNeedsOnce() {
    WithSavedModel(dir => WithRestorePlan(dir, null, plan => {
      Assert.Equal(136L, plan.TotalBytes(), "w's 128 bytes and b's 8");
      Assert.Equal(136L, plan.Execute(plan.AllocateBuffers()), "bytes read");
    }));
  }

  [Test]
  public static void EveryRestoredShardEqualsTheOriginalArraysSlice() {
    WithSavedModel(dir => WithRestorePlan(dir, null, plan => {
      byte[][] buffers = plan.AllocateBuffers();
      plan.Execute(buffers);
      ReadPiece[] pieces = plan.Pieces();
      for (int i = 0; i < pieces.Length; ++i) {
        long t = pieces[i].Tensor;
        Assert.Equal(Slice(Globals[t], Shapes[t], ElementSizes[t], pieces[i].Ranges), buffers[i], "piece " + i);
      }
      Assert.Equal(new[] {16, 17, 18, 19, 24, 25, 26, 27},
                   Enumerable.Range(0, 8).Select(k => BitConverter.ToInt32(buffers[2], 4 * k)).ToArray(),
                   "device 1's w: rows 2-3, columns 0-3 from both files");
    }));
  }

  [Test]
  public static void ARestoreRequestRestoresOnlyTheTensorsItNames() {
    WithSavedModel(dir => WithRestorePlan(dir, request => request.AddTensor("b", "U8", new long[] {8}), plan => {
      ReadPiece[] pieces = plan.Pieces();
      Assert.Equal(new long[] {0, 1, 2, 3}, pieces.Select(p => p.Device).ToArray(), "devices");
      Assert.Equal(new long[] {0, 0, 0, 0}, pieces.Select(p => p.Tensor).ToArray(), "the request's tensor 0");
      byte[][] buffers = plan.AllocateBuffers();
      Assert.Equal(8L, plan.Execute(buffers), "bytes read");
      Assert.Equal(Globals[1], buffers[3], "device 3's b");
    }));
  }

  [Test]
  public static void ATensorTheCheckpointLacksIsNotFound() {
    WithSavedModel(dir => {
      var e = Assert.Throws(Code.NotFound, "", () => WithRestorePlan(dir, request => request.AddTensor("v", null, null),
                                                                      plan => {}));
      Assert.Equal("Tensor 'v' is not in the checkpoint " + dir, e.Message, "message");
    });
  }

  [Test]
  public static void ABufferOfTheWrongSizeIsInvalidArgumentNamingTheShard() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 2, options => {}, saver => {
        saver.SetShard(0, 0, new byte[16]);
        saver.SetShard(0, 1, new byte[8]);
        var e = Assert.Throws(Code.InvalidArgument, "", saver.Write);
        Assert.Equal("shard 1: Argument 'size' is 8; expected 16, the bytes of device 1's shard of tensor \"w\"",
                     e.Message, "message");
      });
      Assert.True(!Directory.Exists(dir) || Directory.GetFiles(dir).Length == 0, "no file left");
    });
  }

  [Test]
  public static void AShardTheProcessStoresWithoutABufferIsFailedPreconditionNamingIt() {
    WithDirectory(dir => {
      WithSaver(dir, 1, 2, options => {}, saver => {
        saver.SetShard(0, 4, new byte[16]);
        var e = Assert.Throws(Code.FailedPrecondition, "", saver.Write);
        Assert.Equal("tensor \"w\": no buffer for device 5, which stores [2:4, 2:4]; expected " +
                     "tessera_checkpoint_saver_set_shard for it", e.Message, "message");
      });
    });
  }

  [Test]
  public static void AShardHandedAgainReplacesTheFirstSoAFailedWriteCanBeRetried() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        SetShards(saver, 0, 1);
        saver.SetShard(1, 2, new byte[1]);
        Assert.Throws(Code.InvalidArgument, "Argument 'size' is 1; expected 2", saver.Write);
        saver.SetShard(1, 2, new byte[] {104, 105});
        saver.Write();
        saver.Finish();
      });
      using (var index = new CheckpointIndex(dir)) Assert.Equal(2L, index.NumTensors(), "tensors");
    });
  }

  [Test]
  public static void AShardMayBeAnyMemoryPinnedOnlyForTheWrite() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        SetShards(saver, 0, 1);
        var both = new byte[] {0, 106, 107, 0};
        saver.SetShard(1, 3, new ReadOnlyMemory<byte>(both, 1, 2));
        saver.Write();
        saver.Finish();
      });
      WithRestorePlan(dir, request => request.AddTensor("b", null, null), plan => {
        byte[][] buffers = plan.AllocateBuffers();
        plan.Execute(buffers);
        Assert.Equal(Globals[1], buffers[0], "b");
      });
    });
  }

  [Test]
  public static void ANullBufferIsInvalidArgument() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        var e = Assert.Throws(Code.InvalidArgument, "", () => saver.SetShard(0, 0, (byte[])null));
        Assert.Equal("Argument 'buffer' is null; expected a byte[]", e.Message, "message");
      });
    });
  }

  [Test]
  public static void ASaverWritesOnce() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        SetShards(saver, 0, 1);
        saver.Write();
        SetShards(saver, 0, 1);
        var e = Assert.Throws(Code.FailedPrecondition, "", saver.Write);
        Assert.Equal("Argument 'saver' has written its file; expected a saver that has not (a saver writes once)",
                     e.Message, "message");
      });
    });
  }

  [Test]
  public static void AStreamedSaveWritesTheSameFilesAndIndexAsBuffers() {
    WithDirectory(buffered => WithDirectory(streamed => {
      SaveModel(buffered, false);
      SaveModel(streamed, true);
      foreach (string name in new[] {"tessera-index.json", "process-00000-of-00002.safetensors",
                                     "process-00001-of-00002.safetensors"}) {
        Assert.Equal(File.ReadAllBytes(Path.Combine(buffered, name)), File.ReadAllBytes(Path.Combine(streamed, name)),
                     name);
      }
    }));
  }

  [Test]
  public static void AFillIsAskedForPartsOfAtMostTheChunkSizeInFileOrder() {
    WithDirectory(dir => {
      var asked = new List<string>();
      WithSaver(dir, 1, 2, options => options.SetChunkSize(8), saver => saver.Stream(
          (tensor, device, ranges, offset, output) => {
            asked.Add(tensor + "/" + device + " [" + string.Join(", ", ranges.ToArray()) + "] " + offset + "+" +
                      output.Length);
            return Fill(tensor, device, ranges, offset, output);
          }));
      Assert.Equal(new[] {"0/4 [2, 4, 0, 2] 0+8", "0/4 [2, 4, 0, 2] 8+8", "0/5 [2, 4, 2, 4] 0+8",
                          "0/5 [2, 4, 2, 4] 8+8", "0/6 [2, 4, 4, 6] 0+8", "0/6 [2, 4, 4, 6] 8+8",
                          "0/7 [2, 4, 6, 8] 0+8", "0/7 [2, 4, 6, 8] 8+8"}, asked.ToArray(), "parts");
    });
  }

  [Test]
  public static void AFillThatReturnsFalseCancelsTheSaveAndLeavesNoFile() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        var e = Assert.Throws(Code.Cancelled, "", () => saver.Stream((t, d, r, o, output) => false));
        Assert.Equal("the fill callback returned false for device 0 of tensor \"w\" at byte 0", e.Message,
                     "message");
      });
      Assert.True(!Directory.Exists(dir) || Directory.GetFiles(dir).Length == 0, "no file left");
    });
  }

  [Test]
  public static void AFillsExceptionCancelsTheSaveAndIsThrown() {
    WithDirectory(dir => {
      WithSaver(dir, 0, 1, options => {}, saver => {
        var boom = new InvalidOperationException("boom");
        try {
          saver.Stream((t, d, r, o, output) => { throw boom; });
          throw new AssertionException("expected the fill's exception, nothing thrown");
        } catch (InvalidOperationException e) {
          Assert.True(ReferenceEquals(boom, e), "the fill's own exception");
        }
      });
    });
  }
}

}  // namespace Tessera.Tests
