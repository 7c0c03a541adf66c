// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The hand-written half of Checkpoint (experimental, issue 12): its files,
// tensors and metadata as values.
using System.Collections.Generic;

namespace Tessera {

/// <summary>A file of a checkpoint.</summary>
public sealed class CheckpointFile {
  /// <summary>The path as the caller gave it, or the index's directory joined with the name the index gives.</summary>
  public string Path { get; }
  /// <summary>The file's length in bytes when it was opened.</summary>
  public long Size { get; }

  internal CheckpointFile(string path, long size) {
    Path = path;
    Size = size;
  }
}

/// <summary>A tensor of a checkpoint as its file's header describes it.</summary>
public sealed class CheckpointTensor {
  /// <summary>The tensor's name.</summary>
  public string Name { get; }
  /// <summary>The element type as the format spells it ("F16", "BF16", "Q4_K").</summary>
  public string ElementType { get; }
  /// <summary>Elements per storage block: 1 for plain types; for packed and quantized types the
  /// consecutive innermost elements stored together.</summary>
  public long BlockElements { get; }
  /// <summary>Bytes per storage block (for a plain type, bytes per element).</summary>
  public long BlockBytes { get; }
  /// <summary>Outermost dimension first, row-major; empty for a scalar.</summary>
  public long[] Shape { get; }
  /// <summary>The position of the file holding the data (<see cref="Checkpoint.Files"/>).</summary>
  public long FileIndex { get; }
  /// <summary>The offset of the first byte, absolute in that file.</summary>
  public long Offset { get; }
  /// <summary>The bytes the tensor occupies there.</summary>
  public long Size { get; }

  internal CheckpointTensor(string name, string elementType, long blockElements, long blockBytes, long[] shape,
                            long fileIndex, long offset, long size) {
    Name = name;
    ElementType = elementType;
    BlockElements = blockElements;
    BlockBytes = blockBytes;
    Shape = shape;
    FileIndex = fileIndex;
    Offset = offset;
    Size = size;
  }

  /// <summary>"name TYPE[d0, d1] file F bytes [offset, end)".</summary>
  public override string ToString() {
    return Name + " " + ElementType + "[" + string.Join(", ", Shape) + "] file " + FileIndex + " bytes [" + Offset +
           ", " + (Offset + Size) + ")";
  }
}

public partial class Checkpoint {
  /// <summary>The checkpoint's files, in the order of their names.</summary>
  public CheckpointFile[] Files() {
    var files = new CheckpointFile[NumFiles()];
    for (long i = 0; i < files.LongLength; ++i) files[i] = new CheckpointFile(FilePath(i), FileSize(i));
    return files;
  }

  /// <summary>Tensor <paramref name="index"/> (OUT_OF_RANGE from NumTensors() on).</summary>
  public CheckpointTensor Tensor(long index) {
    return new CheckpointTensor(TensorName(index), TensorElementType(index), TensorBlockNumElements(index),
                                TensorBlockSize(index), TensorShape(index), TensorFileIndex(index),
                                TensorOffset(index), TensorSize(index));
  }

  /// <summary>The tensor called <paramref name="name"/> (NOT_FOUND when none is).</summary>
  public CheckpointTensor Tensor(string name) {
    return Tensor(TensorLookup(name));
  }

  /// <summary>Every tensor, file by file in each header's order.</summary>
  public CheckpointTensor[] Tensors() {
    var tensors = new CheckpointTensor[NumTensors()];
    for (long i = 0; i < tensors.LongLength; ++i) tensors[i] = Tensor(i);
    return tensors;
  }

  /// <summary>The metadata entries in file order (their keys are distinct).</summary>
  public KeyValuePair<string, string>[] Metadata() {
    var entries = new KeyValuePair<string, string>[NumMetadataEntries()];
    for (long i = 0; i < entries.LongLength; ++i) {
      entries[i] = new KeyValuePair<string, string>(MetadataKey(i), MetadataValue(i));
    }
    return entries;
  }
}

}  // namespace Tessera
