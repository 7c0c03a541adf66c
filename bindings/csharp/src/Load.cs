// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of ReadPlan (experimental, issue 12): its pieces as
// values, and loading into managed memory pinned for the call.
using System;
using System.Buffers;
using System.Runtime.InteropServices;

namespace Tessera {

/// <summary>Receives a read plan's bytes in parts: <paramref name="bytes"/> (valid only during the call: copy what
/// you keep) are the bytes at <paramref name="offset"/> of piece <paramref name="piece"/>'s shard. Runs on the loader
/// threads, possibly several at once (for different bytes). Returning false cancels the load; so does an exception,
/// which Execute then throws.</summary>
public delegate bool PieceConsumer(long piece, long offset, ReadOnlySpan<byte> bytes);

/// <summary>Told the bytes a load has read so far and its total, after each block of reads, on a loader thread,
/// never concurrently with itself. Returning false cancels the load; so does an exception, which Execute then
/// throws.</summary>
public delegate bool LoadProgress(long bytesDone, long bytesTotal);

/* One load's callbacks as the trampolines call them on the loader threads (NativeCall: an exception is kept, the
   load cancelled, and the exception thrown by Execute). */
internal sealed class LoadCallbacks : NativeCall {
  internal delegate int PieceFn(IntPtr userData, long piece, long offset, IntPtr bytes, long size);
  internal delegate int ProgressFn(IntPtr userData, long bytesDone, long bytesTotal);

  /* Static, so the GC never collects them while native code holds their pointers. */
  static readonly PieceFn pieceFn = OnPiece;
  static readonly ProgressFn progressFn = OnProgress;
  static readonly object registerLock = new object();
  static bool registered;

  readonly PieceConsumer consumer;
  readonly LoadProgress progress;

  internal LoadCallbacks(PieceConsumer consumer, LoadProgress progress) {
    this.consumer = consumer;
    this.progress = progress;
    lock (registerLock) {
      if (!registered) {
        tesseraPINVOKE.TesseraCsSetLoadCallbacks(pieceFn, progressFn);
        registered = true;
      }
    }
  }

  static LoadCallbacks Of(IntPtr userData) { return Of<LoadCallbacks>(userData); }

  static int OnPiece(IntPtr userData, long piece, long offset, IntPtr bytes, long size) {
    LoadCallbacks c = null;
    try {
      c = Of(userData);
      unsafe {
        return c.consumer(piece, offset, new ReadOnlySpan<byte>((void*)bytes, checked((int)size))) ? 1 : 0;
      }
    } catch (Exception e) {
      c?.Keep(e);
      return 0;
    }
  }

  static int OnProgress(IntPtr userData, long bytesDone, long bytesTotal) {
    LoadCallbacks c = null;
    try {
      c = Of(userData);
      return c.progress(bytesDone, bytesTotal) ? 1 : 0;
    } catch (Exception e) {
      c?.Keep(e);
      return 0;
    }
  }
}

/// <summary>One (device, tensor) piece of a read plan: the device's shard of the tensor as row-major contiguous
/// bytes in the checkpoint's element type.</summary>
public sealed class ReadPiece {
  /// <summary>The logical device (row-major mesh position).</summary>
  public long Device { get; }
  /// <summary>The tensor's position in the checkpoint (<see cref="Checkpoint.Tensor(long)"/>); in a restore plan,
  /// in its RestoreRequest, or without one in the index (<see cref="CheckpointIndex.Tensor(long)"/>).</summary>
  public long Tensor { get; }
  /// <summary>The box of the tensor: [start0, stop0, start1, stop1, ...].</summary>
  public long[] Ranges { get; }
  /// <summary>The shard's shape (stop - start per dimension).</summary>
  public long[] Shape { get; }
  /// <summary>The shard's bytes: the length its buffer must have.</summary>
  public long Size { get; }

  internal ReadPiece(long device, long tensor, long[] ranges, long[] shape, long size) {
    Device = device;
    Tensor = tensor;
    Ranges = ranges;
    Shape = shape;
    Size = size;
  }
}

/* Managed buffers pinned for one native call: their addresses and lengths. */
internal sealed class PinnedBuffers : IDisposable {
  internal IntPtr[] Addresses { get; }
  internal long[] Sizes { get; }
  readonly GCHandle[] handles;
  readonly MemoryHandle[] memoryHandles;

  internal PinnedBuffers(byte[][] buffers) {
    int n = buffers == null ? 0 : buffers.Length;
    Addresses = new IntPtr[n];
    Sizes = new long[n];
    handles = new GCHandle[n];
    try {
      for (int i = 0; i < n; ++i) {
        if (buffers[i] == null) throw NullEntry(i);
        handles[i] = GCHandle.Alloc(buffers[i], GCHandleType.Pinned);
        Addresses[i] = handles[i].AddrOfPinnedObject();
        Sizes[i] = buffers[i].LongLength;
      }
    } catch {
      Dispose();
      throw;
    }
  }

  internal PinnedBuffers(Memory<byte>[] buffers)
      : this(buffers == null ? 0 : buffers.Length, i => buffers[i]) {}

  /* Read-only memory (a save's shards): the native side only reads it. */
  internal PinnedBuffers(ReadOnlyMemory<byte>[] buffers)
      : this(buffers == null ? 0 : buffers.Length, i => buffers[i]) {}

  PinnedBuffers(int n, Func<int, ReadOnlyMemory<byte>> buffer) {
    Addresses = new IntPtr[n];
    Sizes = new long[n];
    memoryHandles = new MemoryHandle[n];
    try {
      for (int i = 0; i < n; ++i) {
        ReadOnlyMemory<byte> memory = buffer(i);
        memoryHandles[i] = memory.Pin();
        unsafe {
          Addresses[i] = (IntPtr)memoryHandles[i].Pointer;
        }
        Sizes[i] = memory.Length;
      }
    } catch {
      Dispose();
      throw;
    }
  }

  static TesseraException NullEntry(int i) {
    return new TesseraException(Code.InvalidArgument, "Argument 'buffers[" + i + "]' is null; expected a byte[]");
  }

  /* Unpins every buffer. */
  public void Dispose() {
    if (handles != null) {
      foreach (var h in handles) {
        if (h.IsAllocated) h.Free();
      }
    }
    if (memoryHandles != null) {
      foreach (var h in memoryHandles) h.Dispose();
    }
  }
}

public partial class ReadPlan {
  /// <summary>Piece <paramref name="index"/> (OUT_OF_RANGE from NumPieces() on).</summary>
  public ReadPiece Piece(long index) {
    return new ReadPiece(PieceDevice(index), PieceTensor(index), PieceRanges(index), PieceShape(index),
                         PieceSize(index));
  }

  /// <summary>Every piece: the process's devices in mesh order, each with every tensor in checkpoint order.</summary>
  public ReadPiece[] Pieces() {
    var pieces = new ReadPiece[NumPieces()];
    for (long i = 0; i < pieces.LongLength; ++i) pieces[i] = Piece(i);
    return pieces;
  }

  /// <summary>One array per piece, of its size, ready for <see cref="Execute(byte[][])"/>.</summary>
  public byte[][] AllocateBuffers() {
    var buffers = new byte[NumPieces()][];
    for (long i = 0; i < buffers.LongLength; ++i) buffers[i] = new byte[PieceSize(i)];
    return buffers;
  }

  /// <summary>Reads piece i's shard into <paramref name="buffers"/>[i], whose length must be PieceSize(i); each
  /// array is pinned for the call, which returns once every loader thread is done. Returns the bytes read from the
  /// files (TotalBytes()).</summary>
  public long Execute(params byte[][] buffers) {
    return Execute(buffers, null);
  }

  /// <summary><see cref="Execute(byte[][])"/>, telling <paramref name="progress"/> (null: nobody) the bytes read so
  /// far after each block of reads.</summary>
  public long Execute(byte[][] buffers, LoadProgress progress) {
    using (var pinned = new PinnedBuffers(buffers)) return ExecutePinned(pinned, progress);
  }

  /// <summary>Reads piece i's shard into <paramref name="buffers"/>[i] (any Memory: of an array, or of native
  /// memory), pinned for the call; as <see cref="Execute(byte[][], LoadProgress)"/>.</summary>
  public long Execute(Memory<byte>[] buffers, LoadProgress progress = null) {
    using (var pinned = new PinnedBuffers(buffers)) return ExecutePinned(pinned, progress);
  }

  /// <summary>Reads the plan, handing each piece's bytes to <paramref name="consumer"/> in parts (see
  /// <see cref="PieceConsumer"/>): every byte of every piece arrives exactly once, replicas each get their own call.
  /// <paramref name="progress"/> may be null. Returns the bytes read from the files.</summary>
  public long Execute(PieceConsumer consumer, LoadProgress progress = null) {
    if (consumer == null) {
      throw new TesseraException(Code.InvalidArgument, "Argument 'consumer' is null; expected a PieceConsumer");
    }
    return new LoadCallbacks(consumer, progress).Run(key => StreamKey(key, progress != null));
  }

  long ExecutePinned(PinnedBuffers pinned, LoadProgress progress) {
    if (progress == null) return ExecutePinned(pinned);
    return new LoadCallbacks(null, progress).Run(key => ExecuteProgressPinned(key, pinned));
  }
}

}  // namespace Tessera
