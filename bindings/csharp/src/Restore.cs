// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of CheckpointIndex (experimental, issue 13): a
// sharded checkpoint's tensors and stored pieces as values, and restoring it
// as a ReadPlan (src/Load.cs executes it).
namespace Tessera {

/// <summary>A piece of a sharded checkpoint: one distinct shard of a tensor, stored once.</summary>
public sealed class SavedPiece {
  /// <summary>The piece's box of the tensor: [start0, stop0, start1, stop1, ...].</summary>
  public long[] Ranges { get; }
  /// <summary>The position of the file holding it (<see cref="CheckpointIndex.Files"/>).</summary>
  public long File { get; }

  internal SavedPiece(long[] ranges, long file) {
    Ranges = ranges;
    File = file;
  }
}

/// <summary>A tensor of a sharded checkpoint as its index describes it.</summary>
public sealed class SavedTensor {
  /// <summary>The tensor's name.</summary>
  public string Name { get; }
  /// <summary>The safetensors dtype ("F32", "BF16", "I64", ...).</summary>
  public string Dtype { get; }
  /// <summary>The global shape, outermost dimension first; empty for a scalar.</summary>
  public long[] Shape { get; }
  /// <summary>The stored pieces, which tile the tensor.</summary>
  public SavedPiece[] Pieces { get; }

  internal SavedTensor(string name, string dtype, long[] shape, SavedPiece[] pieces) {
    Name = name;
    Dtype = dtype;
    Shape = shape;
    Pieces = pieces;
  }

  /// <summary>"name DTYPE[d0, d1] N pieces".</summary>
  public override string ToString() {
    return Name + " " + Dtype + "[" + string.Join(", ", Shape) + "] " + Pieces.Length + " pieces";
  }
}

public partial class CheckpointIndex {
  /// <summary>The paths of the checkpoint's files, one per saving process (the index's directory joined with the
  /// names it gives).</summary>
  public string[] Files() {
    var files = new string[NumFiles()];
    for (long i = 0; i < files.LongLength; ++i) files[i] = FilePath(i);
    return files;
  }

  /// <summary>Tensor <paramref name="index"/> in save order (OUT_OF_RANGE from NumTensors() on).</summary>
  public SavedTensor Tensor(long index) {
    var pieces = new SavedPiece[TensorNumPieces(index)];
    for (long p = 0; p < pieces.LongLength; ++p) pieces[p] = new SavedPiece(PieceRanges(index, p), PieceFile(index, p));
    return new SavedTensor(TensorName(index), TensorDtype(index), TensorShape(index), pieces);
  }

  /// <summary>Every tensor, in save order.</summary>
  public SavedTensor[] Tensors() {
    var tensors = new SavedTensor[NumTensors()];
    for (long i = 0; i < tensors.LongLength; ++i) tensors[i] = Tensor(i);
    return tensors;
  }

  /// <summary>The reads of one process (<paramref name="options"/>' SetProcess; null: process 0 of 1, the
  /// defaults) restoring every tensor onto the mesh and layouts of <paramref name="layoutMap"/> (a tensor without a
  /// rule is replicated); as <see cref="RestorePlan(LayoutMap, RestoreRequest, ReadOptions)"/>.</summary>
  public ReadPlan RestorePlan(LayoutMap layoutMap, ReadOptions options = null) {
    return RestorePlan(layoutMap, null, options);
  }
}

}  // namespace Tessera
