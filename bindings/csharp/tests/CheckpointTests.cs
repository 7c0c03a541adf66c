// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Checkpoint: a safetensors file's headers (tests/capi/test_checkpoint.c's
// file: a 144-byte header, tensors at absolute offsets 152 and 176, 178 bytes).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Tessera.Tests {

public static class CheckpointTests {
  internal const string Header = "{\"__metadata__\":{\"format\":\"pt\"}," +
      "\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}," +
      "\"s\":{\"dtype\":\"F4\",\"shape\":[2,2],\"data_offsets\":[24,26]}}";

  /* A safetensors file in a fresh directory: the header's length (u64,
     little-endian), the header, data bytes 0, 1, 2, ... */
  internal static string WriteSafetensors(string name, string header, int dataSize) {
    string dir = Path.Combine(Path.GetTempPath(), "tessera-cs-" + Guid.NewGuid().ToString("N"));
    Directory.CreateDirectory(dir);
    string path = Path.Combine(dir, name);
    byte[] json = Encoding.UTF8.GetBytes(header);
    using (var file = new BinaryWriter(File.Create(path))) {
      file.Write((ulong)json.Length);  // BinaryWriter is little-endian
      file.Write(json);
      for (int i = 0; i < dataSize; ++i) file.Write((byte)i);
    }
    return path;
  }

  internal static void Remove(string path) { Directory.Delete(Path.GetDirectoryName(path), true); }

  /* Runs `test` on the checkpoint of the file above, then removes the file. */
  static void WithCheckpoint(Action<Checkpoint, string> test) {
    string path = WriteSafetensors("one.safetensors", Header, 26);
    try {
      using (var checkpoint = new Checkpoint(path)) test(checkpoint, path);
    } finally {
      Remove(path);
    }
  }

  [Test]
  public static void ASafetensorsFileIsOneFileInTheSafetensorsFormat() {
    WithCheckpoint((checkpoint, path) => {
      Assert.Equal("safetensors", checkpoint.Format(), "format");
      var files = checkpoint.Files();
      Assert.Equal(1, files.Length, "files");
      Assert.Equal(path, files[0].Path, "path");
      Assert.Equal(178L, files[0].Size, "size");
    });
  }

  [Test]
  public static void TensorsKeepTheHeaderOrderWithAbsoluteOffsetsAndBlocks() {
    WithCheckpoint((checkpoint, path) => {
      var tensors = checkpoint.Tensors();
      Assert.Equal(2, tensors.Length, "tensors");
      Assert.Equal("w F32[2, 3] file 0 bytes [152, 176)", tensors[0].ToString(), "w");
      Assert.Equal(1L, tensors[0].BlockElements, "w block elements");
      Assert.Equal(4L, tensors[0].BlockBytes, "w block bytes");
      Assert.Equal(24L, tensors[0].Size, "w size");
      Assert.Equal("s F4[2, 2] file 0 bytes [176, 178)", tensors[1].ToString(), "s");
      Assert.Equal(2L, tensors[1].BlockElements, "s block elements");
      Assert.Equal(1L, tensors[1].BlockBytes, "s block bytes");
      Assert.Equal(new long[] {2, 2}, tensors[1].Shape, "s shape");
    });
  }

  [Test]
  public static void ATensorIsLookedUpByName() {
    WithCheckpoint((checkpoint, path) => {
      Assert.Equal(1L, checkpoint.TensorLookup("s"), "index");
      Assert.Equal(176L, checkpoint.Tensor("s").Offset, "offset");
    });
  }

  [Test]
  public static void MetadataIsListedInFileOrderAndLookedUpByKey() {
    WithCheckpoint((checkpoint, path) => {
      Assert.Equal(new[] {new KeyValuePair<string, string>("format", "pt")}, checkpoint.Metadata(), "metadata");
      Assert.Equal("pt", checkpoint.MetadataLookup("format"), "lookup");
    });
  }

  [Test]
  public static void AnUnknownTensorNameIsNotFoundNamingIt() {
    WithCheckpoint((checkpoint, path) => {
      var e = Assert.Throws(Code.NotFound, "", () => checkpoint.Tensor("v"));
      Assert.Equal("No tensor named 'v' in the checkpoint", e.Message, "message");
    });
  }

  [Test]
  public static void ATensorIndexAtTheCountIsOutOfRange() {
    WithCheckpoint((checkpoint, path) => {
      var e = Assert.Throws(Code.OutOfRange, "", () => checkpoint.Tensor(2));
      Assert.Equal("Argument 'index' is 2; expected less than 2 (the checkpoint's tensors)", e.Message, "message");
    });
  }

  [Test]
  public static void ADuplicateTensorIsRefusedWithItsFileAndByte() {
    string path = WriteSafetensors("dup.safetensors",
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}," +
        "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}", 2);
    try {
      var e = Assert.Throws(Code.InvalidArgument, "", () => new Checkpoint(path));
      Assert.Equal(path + ": byte 61: invalid JSON in header: duplicate key \"a\" (first at byte 9)", e.Message,
                   "message");
    } finally {
      Remove(path);
    }
  }

  [Test]
  public static void ADisposedCheckpointIsInvalidArgumentNamingIt() {
    WithCheckpoint((checkpoint, path) => {
      checkpoint.Dispose();
      var e = Assert.Throws(Code.InvalidArgument, "", () => checkpoint.NumTensors());
      Assert.Equal("Argument 'checkpoint' is NULL; expected a valid pointer", e.Message, "message");
    });
  }
}

}  // namespace Tessera.Tests
