// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of CheckpointSaver (experimental, issue 13): a
// process's shards handed as managed memory, kept referenced here and pinned
// only for the one native call that writes them, or asked of a delegate.
using System;
using System.Collections.Generic;

namespace Tessera {

/// <summary>Fills <paramref name="output"/> with its length in bytes of the shard of tensor
/// <paramref name="tensor"/> (its position in the save) on device <paramref name="device"/>, starting at byte
/// <paramref name="offset"/> of that shard; the shard's box is <paramref name="ranges"/> ([start0, stop0, start1,
/// stop1, ...]) and its bytes are the box of the tensor as row-major contiguous bytes. Both spans are valid only
/// during the call. Called on the thread that called <see cref="CheckpointSaver.Stream"/>, for each part (at most
/// the options' chunk size) of each piece the process stores, in file order. Returning false cancels the save; so
/// does an exception, which Stream then throws.</summary>
public delegate bool ShardFill(long tensor, long device, ReadOnlySpan<long> ranges, long offset, Span<byte> output);

/* One save's fill as the trampoline calls it (NativeCall: an exception is
   kept, the save cancelled, and the exception thrown by Stream). */
internal sealed class SaveCallbacks : NativeCall {
  internal delegate int FillFn(IntPtr userData, long tensor, long device, IntPtr ranges, long numRanges, long offset,
                               IntPtr output, long size);

  /* Static, so the GC never collects it while native code holds its pointer. */
  static readonly FillFn fillFn = OnFill;
  static readonly object registerLock = new object();
  static bool registered;

  readonly ShardFill fill;

  internal SaveCallbacks(ShardFill fill) {
    this.fill = fill;
    lock (registerLock) {
      if (!registered) {
        tesseraPINVOKE.TesseraCsSetSaveCallback(fillFn);
        registered = true;
      }
    }
  }

  static int OnFill(IntPtr userData, long tensor, long device, IntPtr ranges, long numRanges, long offset,
                    IntPtr output, long size) {
    SaveCallbacks c = null;
    try {
      c = Of<SaveCallbacks>(userData);
      unsafe {
        return c.fill(tensor, device, new ReadOnlySpan<long>((void*)ranges, checked((int)numRanges)), offset,
                      new Span<byte>((void*)output, checked((int)size))) ? 1 : 0;
      }
    } catch (Exception e) {
      c?.Keep(e);
      return 0;
    }
  }
}

public partial class CheckpointSaver {
  /* The shards handed to SetShard since the last successful write, in the
     order handed (a later one for the same tensor and device replaces its
     entry): referenced here so that the GC keeps them, pinned only during
     Write. */
  readonly List<long> shardTensors = new List<long>();
  readonly List<long> shardDevices = new List<long>();
  readonly List<ReadOnlyMemory<byte>> shardBuffers = new List<ReadOnlyMemory<byte>>();
  readonly Dictionary<Tuple<long, long>, int> shardPositions = new Dictionary<Tuple<long, long>, int>();

  /// <summary>Hands the shard of tensor <paramref name="tensor"/> (its position in the save) on device
  /// <paramref name="device"/> (its row-major mesh position) for <see cref="Write"/>: the device's box of the tensor
  /// as row-major bytes. The saver keeps a reference to the array, not a copy, until a Write succeeds; a later call
  /// for the same tensor and device replaces it. Whether the tensor, device and length are right is checked by
  /// Write, which names the shard.</summary>
  public void SetShard(long tensor, long device, byte[] buffer) {
    if (buffer == null) {
      throw new TesseraException(Code.InvalidArgument, "Argument 'buffer' is null; expected a byte[]");
    }
    SetShard(tensor, device, (ReadOnlyMemory<byte>)buffer);
  }

  /// <summary><see cref="SetShard(long, long, byte[])"/> for any memory (of an array, a slice of one, or native
  /// memory); it is pinned only during <see cref="Write"/>.</summary>
  public void SetShard(long tensor, long device, ReadOnlyMemory<byte> buffer) {
    TesseraException.CheckNonNegative(tensor, "tensor");
    TesseraException.CheckNonNegative(device, "device");
    var key = Tuple.Create(tensor, device);
    int position;
    if (shardPositions.TryGetValue(key, out position)) {
      shardBuffers[position] = buffer;
      return;
    }
    shardPositions.Add(key, shardBuffers.Count);
    shardTensors.Add(tensor);
    shardDevices.Add(device);
    shardBuffers.Add(buffer);
  }

  /// <summary>Writes the process's file from the shards handed to SetShard, all in one native call during which
  /// they are pinned, crash-safely (a temporary name, fsync, rename). A saver writes once: a second Write is
  /// FAILED_PRECONDITION. A shard that is refused is named by its position among the shards handed (a replaced one
  /// keeps its first position): "shard 1: Argument 'size' is 8; expected 16, ..."; a shard the process stores
  /// without a buffer is FAILED_PRECONDITION naming the tensor, device and box.
  /// After a failure no file of this save is left, and the shards stay handed, so one can be replaced and Write
  /// called again; after a success the saver references none of them.</summary>
  public void Write() {
    using (var pinned = new PinnedBuffers(shardBuffers.ToArray())) {
      WriteShardsPinned(shardTensors.ToArray(), shardDevices.ToArray(), pinned);
    }
    shardTensors.Clear();
    shardDevices.Clear();
    shardBuffers.Clear();
    shardPositions.Clear();
  }

  /// <summary>Writes the process's file, asking <paramref name="fill"/> for the bytes of each piece the process
  /// stores (see <see cref="ShardFill"/>), so that no shard need be held whole; crash-safely, once, as
  /// <see cref="Write"/>. A fill that returns false makes it throw CANCELLED; a fill's exception is thrown as
  /// itself.</summary>
  public void Stream(ShardFill fill) {
    if (fill == null) {
      throw new TesseraException(Code.InvalidArgument, "Argument 'fill' is null; expected a ShardFill");
    }
    new SaveCallbacks(fill).Run(key => {
      StreamKey(key);
      return 0;
    });
  }
}

}  // namespace Tessera
