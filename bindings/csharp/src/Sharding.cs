// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Host scatter and gather (tessera/copy.h) over C# arrays: the native half
// passes every device's shard as one concatenated array (../tessera.i);
// this half splits and joins it.
using System;

namespace Tessera {

public partial class Sharding {
  /**
   * Every device's shard of `global` (row-major, `elementSize` bytes per
   * element), in device order: entry i holds ShardSize(i, elementSize)
   * bytes, shaped as ShardShape(i). Devices that `options` leave out get
   * zeros. `options` null: the defaults.
   */
  public byte[][] Scatter(byte[] global, long elementSize, CopyOptions options = null) {
    byte[] concat = ScatterConcat(global, elementSize, options);
    var shards = new byte[NumDevices][];
    long offset = 0;
    for (long i = 0; i < shards.LongLength; i++) {
      shards[i] = new byte[ShardSize(i, elementSize)];
      Buffer.BlockCopy(concat, checked((int)offset), shards[i], 0, shards[i].Length);
      offset += shards[i].Length;
    }
    return shards;
  }

  /**
   * The global array (`globalSize` bytes, row-major) assembled from each
   * device's shard in device order; entry i must hold ShardSize(i,
   * elementSize) bytes (entries the copy does not read are not looked at,
   * but must have that size too). `options` null: the defaults.
   */
  public byte[] Gather(byte[][] shards, long elementSize, long globalSize, CopyOptions options = null) {
    return GatherConcat(Concatenate(shards, elementSize), elementSize, globalSize, options);
  }

  /** Scatter of primitive elements (their size, the platform's byte order). */
  public T[][] Scatter<T>(T[] global, CopyOptions options = null) where T : struct {
    int size = ElementSize<T>();
    byte[][] bytes = Scatter(ToBytes(global), size, options);
    var shards = new T[bytes.Length][];
    for (int i = 0; i < bytes.Length; i++) {
      shards[i] = new T[bytes[i].Length / size];
      Buffer.BlockCopy(bytes[i], 0, shards[i], 0, bytes[i].Length);
    }
    return shards;
  }

  /** Gather of primitive elements; `globalLength` counts elements. */
  public T[] Gather<T>(T[][] shards, long globalLength, CopyOptions options = null) where T : struct {
    int size = ElementSize<T>();
    byte[][] bytes = shards == null ? null : Array.ConvertAll(shards, ToBytes);
    byte[] global = Gather(bytes, size, checked(globalLength * size), options);
    var values = new T[global.Length / size];
    Buffer.BlockCopy(global, 0, values, 0, global.Length);
    return values;
  }

  /* Buffer copies primitive arrays only; anything else is refused here. */
  static int ElementSize<T>() where T : struct {
    try {
      return Buffer.ByteLength(new T[1]);
    } catch (ArgumentException) {
      throw new TesseraException(Code.InvalidArgument,
          "Argument 'T' must be a primitive type (bool, char, an integer or a floating-point type), got " + typeof(T));
    }
  }

  static byte[] ToBytes<T>(T[] values) where T : struct {
    if (values == null) return null;
    var bytes = new byte[Buffer.ByteLength(values)];
    Buffer.BlockCopy(values, 0, bytes, 0, bytes.Length);
    return bytes;
  }

  private byte[] Concatenate(byte[][] shards, long elementSize) {
    long devices = NumDevices;
    if (shards == null || shards.LongLength != devices) {
      throw new TesseraException(Code.InvalidArgument,
          "Argument 'shards' must have " + devices + " entries (one per device), got " +
          (shards == null ? "null" : shards.LongLength.ToString()));
    }
    long total = 0;
    for (long i = 0; i < shards.LongLength; i++) {
      long size = ShardSize(i, elementSize);
      if (shards[i] == null || shards[i].LongLength != size) {
        throw new TesseraException(Code.InvalidArgument,
            "Argument 'shards[" + i + "]' must have " + size + " bytes (device " + i + "'s shard), got " +
            (shards[i] == null ? "null" : shards[i].LongLength + " bytes"));
      }
      total += size;
    }
    var concat = new byte[total];
    long offset = 0;
    foreach (byte[] shard in shards) {
      Buffer.BlockCopy(shard, 0, concat, checked((int)offset), shard.Length);
      offset += shard.Length;
    }
    return concat;
  }
}

}
