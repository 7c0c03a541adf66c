// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint: a safetensors file's headers (tests/capi/test_checkpoint.c's
 * file: a 144-byte header, tensors at absolute offsets 152 and 176, 178 bytes).
 */
class CheckpointTest {
  static final String HEADER = "{\"__metadata__\":{\"format\":\"pt\"},"
      + "\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
      + "\"s\":{\"dtype\":\"F4\",\"shape\":[2,2],\"data_offsets\":[24,26]}}";

  @TempDir Path dir;

  /** A safetensors file: the header's length (u64, little-endian), the header, data bytes 0, 1, 2, ... */
  static Path writeSafetensors(Path path, String header, int dataSize) throws IOException {
    byte[] json = header.getBytes(StandardCharsets.UTF_8);
    ByteBuffer file = ByteBuffer.allocate(8 + json.length + dataSize).order(ByteOrder.LITTLE_ENDIAN);
    file.putLong(json.length).put(json);
    for (int i = 0; i < dataSize; ++i) file.put((byte) i);
    return Files.write(path, file.array());
  }

  @Test
  void aSafetensorsFileIsOneFileInTheSafetensorsFormat() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      assertEquals("safetensors", checkpoint.format());
      assertEquals(List.of(new CheckpointFile(path.toString(), 178)), checkpoint.files());
    }
  }

  @Test
  void tensorsKeepTheHeaderOrderWithAbsoluteOffsetsAndBlocks() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      List<CheckpointTensor> tensors = checkpoint.tensors();
      assertEquals(List.of("w F32[2, 3] file 0 bytes [152, 176)", "s F4[2, 2] file 0 bytes [176, 178)"),
                   tensors.stream().map(CheckpointTensor::toString).toList());
      assertArrayEquals(new long[] {1, 4, 2, 1}, new long[] {tensors.get(0).blockElements(),
          tensors.get(0).blockBytes(), tensors.get(1).blockElements(), tensors.get(1).blockBytes()});
      assertArrayEquals(new long[] {2, 3}, tensors.get(0).shape());
      assertEquals(24, tensors.get(0).size());
    }
  }

  @Test
  void aTensorIsLookedUpByName() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      assertEquals(1, checkpoint.tensorLookup("s"));
      assertEquals(176, checkpoint.tensor("s").offset());
    }
  }

  @Test
  void metadataIsListedInFileOrderAndLookedUpByKey() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      assertEquals(Map.of("format", "pt"), checkpoint.metadata());
      assertEquals("pt", checkpoint.metadataLookup("format"));
    }
  }

  @Test
  void anUnknownTensorNameIsNotFoundNamingIt() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      TesseraException e = assertThrows(TesseraException.class, () -> checkpoint.tensor("v"));
      assertEquals(Code.NOT_FOUND, e.code());
      assertEquals("No tensor named 'v' in the checkpoint", e.getMessage());
    }
  }

  @Test
  void aTensorIndexAtTheCountIsOutOfRange() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    try (Checkpoint checkpoint = new Checkpoint(path.toString())) {
      TesseraException e = assertThrows(TesseraException.class, () -> checkpoint.tensor(2));
      assertEquals(Code.OUT_OF_RANGE, e.code());
      assertEquals("Argument 'index' is 2; expected less than 2 (the checkpoint's tensors)", e.getMessage());
    }
  }

  @Test
  void aDuplicateTensorIsRefusedWithItsFileAndByte() throws IOException {
    Path path = writeSafetensors(dir.resolve("dup.safetensors"),
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
        + "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}", 2);
    TesseraException e = assertThrows(TesseraException.class, () -> new Checkpoint(path.toString()));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertEquals(path + ": byte 61: invalid JSON in header: duplicate key \"a\" (first at byte 9)", e.getMessage());
  }

  @Test
  void aClosedCheckpointIsInvalidArgumentNamingIt() throws IOException {
    Path path = writeSafetensors(dir.resolve("one.safetensors"), HEADER, 26);
    Checkpoint checkpoint = new Checkpoint(path.toString());
    checkpoint.close();
    TesseraException e = assertThrows(TesseraException.class, checkpoint::numTensors);
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertEquals("Argument 'checkpoint' is NULL; expected a valid pointer", e.getMessage());
  }
}
