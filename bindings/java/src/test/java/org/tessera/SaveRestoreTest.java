// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * CheckpointSaver, CheckpointIndex and restore plans. Three F32 tensors saved
 * on the 2x4 mesh (batch=2, model=4; devices 0-7 row-major):
 *   row  [8, 16] (batch, None): rows [0:4] on devices 0-3, [4:8] on 4-7
 *   col  [8, 16] (None, model): columns [4m:4m+4] on devices m and 4 + m
 *   bias [16]    replicated on all 8
 * Byte i of tensor t's row-major global array is (i * 31 + 7 + t) mod 256.
 * Each distinct shard is stored once, by its first holder: in a 2-process
 * save (devices 0-3 and 4-7) process 1 stores only rows [4:8].
 */
class SaveRestoreTest {
  static final String[] NAMES = {"row", "col", "bias"};
  static final long[][] SHAPES = {{8, 16}, {8, 16}, {16}};
  static final String[][] SAVED_AXES = {{"batch", null}, {null, "model"}, {null}};

  @TempDir Path dir;

  /** Tensor t's global array, row-major bytes. */
  static byte[] global(int t) {
    byte[] bytes = new byte[(int) (elements(SHAPES[t]) * Float.BYTES)];
    for (int i = 0; i < bytes.length; ++i) bytes[i] = (byte) (i * 31 + 7 + t);
    return bytes;
  }

  static long elements(long[] shape) {
    long n = 1;
    for (long d : shape) n *= d;
    return n;
  }

  /** numpy's global(t)[box].tobytes(): the box [start0, stop0, start1, stop1, ...] of tensor t. */
  static byte[] box(int t, long[] ranges) {
    long[] shape = SHAPES[t];
    byte[] global = global(t);
    long[] boxShape = new long[shape.length];
    for (int d = 0; d < shape.length; ++d) boxShape[d] = ranges[2 * d + 1] - ranges[2 * d];
    byte[] out = new byte[(int) (elements(boxShape) * Float.BYTES)];
    long[] index = new long[shape.length];
    for (int e = 0; e < out.length / Float.BYTES; ++e) {
      // index: e's position in the box, last dimension fastest.
      long rest = e;
      long flat = 0;
      for (int d = shape.length - 1; d >= 0; --d) {
        index[d] = ranges[2 * d] + rest % boxShape[d];
        rest /= boxShape[d];
      }
      for (int d = 0; d < shape.length; ++d) flat = flat * shape[d] + index[d];
      System.arraycopy(global, (int) flat * Float.BYTES, out, e * Float.BYTES, Float.BYTES);
    }
    return out;
  }

  static ByteBuffer direct(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
    buffer.put(0, bytes);
    return buffer;
  }

  /** A saver of process p of n into `into`, with the three tensors added. */
  static CheckpointSaver saver(Path into, long p, long n) {
    try (SaveOptions options = new SaveOptions();
         Mesh mesh = Fixtures.mesh(2, 4, "batch", "model")) {
      options.setProcess(p, n);
      CheckpointSaver saver = new CheckpointSaver(into.toString(), options);
      for (int t = 0; t < NAMES.length; ++t) {
        try (Layout layout = new Layout(SAVED_AXES[t], mesh)) {
          saver.addTensor(NAMES[t], "F32", layout, SHAPES[t]);
        }
      }
      return saver;
    }
  }

  /** Sets the shard of every device of process p of n, tensor by tensor. */
  static void setShards(CheckpointSaver saver, long p, long n) {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model")) {
      for (int t = 0; t < NAMES.length; ++t) {
        try (Layout layout = new Layout(SAVED_AXES[t], mesh);
             Sharding sharding = new Sharding(layout, SHAPES[t], ShardMode.STRICT)) {
          for (long d = p * 8 / n; d < (p + 1) * 8 / n; ++d) {
            // Read-only: the saver only reads them.
            saver.setShard(t, d, direct(box(t, sharding.deviceRanges(d))).asReadOnlyBuffer());
          }
        }
      }
    }
  }

  /** An n-process save: process n-1 first, process 0 last, which finishes. */
  static void saveJob(Path into, long n) {
    for (long p = n - 1; p >= 0; --p) {
      try (CheckpointSaver saver = saver(into, p, n)) {
        setShards(saver, p, n);
        saver.write();
        if (p == 0) saver.finish();
      }
    }
  }

  /** `call` throws a TesseraException of `code` saying `message`. */
  static void assertFails(Code code, String message, Executable call) {
    TesseraException e = assertThrows(TesseraException.class, call);
    assertEquals(code, e.code());
    assertEquals(message, e.getMessage());
  }

  static byte[] contents(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.capacity()];
    buffer.get(0, bytes);
    return bytes;
  }

  @Test
  void aTwoProcessSaveRestoresOnOneProcessOfAnotherMeshAndLayoutExactly() {
    saveJob(dir, 2);
    // A 4x2 mesh, each tensor cut another way: row by columns, col in blocks, bias in quarters.
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Mesh mesh = Fixtures.mesh(4, 2, "x", "y");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout columns = new Layout(new String[] {null, "x"}, mesh);
         Layout blocks = new Layout(new String[] {"y", "x"}, mesh);
         Layout quarters = new Layout(new String[] {"x"}, mesh)) {
      rules.set("row", columns);
      rules.set("col", blocks);
      rules.set("bias", quarters);
      try (ReadPlan plan = index.restorePlan(rules, null, null)) {
        List<ReadPiece> pieces = plan.pieces();
        assertEquals(8 * 3, pieces.size());
        ByteBuffer[] buffers = plan.allocateBuffers();
        // Every stored byte (rows, columns and bias, 512 + 512 + 64) is read once.
        assertEquals(1088, plan.execute(buffers));
        for (int i = 0; i < pieces.size(); ++i) {
          ReadPiece piece = pieces.get(i);
          assertEquals(i / 3, piece.device(), "piece " + i + "'s device");
          assertEquals(i % 3, piece.tensor(), "piece " + i + "'s tensor");
          assertArrayEquals(box(i % 3, piece.ranges()), contents(buffers[i]),
              "device " + piece.device() + "'s " + NAMES[i % 3] + " " + java.util.Arrays.toString(piece.ranges()));
        }
        assertArrayEquals(new long[] {4, 8, 8, 12}, pieces.get(3 * 5 + 1).ranges(), "device 5 (x2, y1)'s col");
      }
    }
  }

  @Test
  void process1OfATwoProcessRestoreReadsTheBoxItsDevicesShareOnce() {
    saveJob(dir, 1);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Mesh mesh = Fixtures.mesh(2, 2, "x", "y");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout rows = new Layout(new String[] {"x", null}, mesh);
         RestoreRequest request = new RestoreRequest();
         ReadOptions options = new ReadOptions()) {
      rules.set("row", rows);
      options.setProcess(1, 2);
      request.addTensor("row", "F32", SHAPES[0]);
      try (ReadPlan plan = index.restorePlan(rules, request, options)) {
        ByteBuffer[] buffers = plan.allocateBuffers();
        // Devices 2 and 3 both hold rows [4:8]: read once.
        assertEquals(256, plan.execute(buffers));
        assertEquals(2, plan.pieces().size());
        for (int i = 0; i < 2; ++i) {
          assertEquals(2 + i, plan.piece(i).device());
          assertArrayEquals(box(0, new long[] {4, 8, 0, 16}), contents(buffers[i]), "device " + (2 + i));
        }
      }
    }
  }

  @Test
  void aRequestRestoresItsTensorsInItsOrder() {
    saveJob(dir, 2);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Mesh mesh = Fixtures.mesh(1, 2, "x", "y");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout halves = new Layout(new String[] {"y"}, mesh);
         RestoreRequest request = new RestoreRequest()) {
      rules.set("bias", halves);
      request.addTensor("bias", "F32", new long[] {16});
      request.addTensor("row", null, null);
      try (ReadPlan plan = index.restorePlan(rules, request, null)) {
        ByteBuffer[] buffers = plan.allocateBuffers();
        plan.execute(buffers);
        long[][] expected = {{0, 8}, {0, 8, 0, 16}, {8, 16}, {0, 8, 0, 16}};
        for (int i = 0; i < 4; ++i) {
          ReadPiece piece = plan.piece(i);
          assertEquals(i % 2, piece.tensor(), "piece " + i + ": its position in the request");
          assertArrayEquals(expected[i], piece.ranges(), "piece " + i);
          assertArrayEquals(box(i % 2 == 0 ? 2 : 0, expected[i]), contents(buffers[i]), "piece " + i);
        }
      }
    }
  }

  @Test
  void theIndexListsEachTensorsShapeDtypeAndPiecesWithTheirFiles() {
    saveJob(dir, 2);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString())) {
      assertEquals(2, index.numProcesses());
      assertEquals(List.of(dir.resolve("process-00000-of-00002.safetensors").toString(),
                           dir.resolve("process-00001-of-00002.safetensors").toString()),
                   index.files());
      List<StoredTensor> tensors = index.tensors();
      assertEquals(3, tensors.size());
      long[][][] ranges = {{{0, 4, 0, 16}, {4, 8, 0, 16}},
                           {{0, 8, 0, 4}, {0, 8, 4, 8}, {0, 8, 8, 12}, {0, 8, 12, 16}},
                           {{0, 16}}};
      long[][] files = {{0, 1}, {0, 0, 0, 0}, {0}};
      for (int t = 0; t < 3; ++t) {
        StoredTensor tensor = tensors.get(t);
        assertEquals(NAMES[t], tensor.name());
        assertEquals("F32", tensor.dtype());
        assertArrayEquals(SHAPES[t], tensor.shape(), NAMES[t]);
        assertEquals(ranges[t].length, tensor.pieces().size(), NAMES[t] + "'s pieces");
        for (int p = 0; p < ranges[t].length; ++p) {
          assertArrayEquals(ranges[t][p], tensor.pieces().get(p).ranges(), NAMES[t] + " piece " + p);
          assertEquals(files[t][p], tensor.pieces().get(p).file(), NAMES[t] + " piece " + p + "'s file");
        }
      }
    }
  }

  @Test
  void theIndexGivesTheShardingATensorWasSavedUnder() {
    saveJob(dir, 2);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Sharding sharding = index.tensorSharding(1)) {
      assertEquals(8, sharding.numDevices());
      assertArrayEquals(new long[] {0, 8, 4, 8}, sharding.deviceRanges(5));
      assertEquals(1, sharding.replicaId(5));
    }
  }

  @Test
  void aShardOfTheWrongSizeIsInvalidArgumentNamingItsPositionDeviceAndTensor() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      setShards(saver, 0, 1);
      saver.setShard(1, 1, ByteBuffer.allocateDirect(8));  // col on device 1: 128 bytes, the 10th shard set
      assertFails(Code.INVALID_ARGUMENT,
                  "shard 9: Argument 'size' is 8; expected 128, the bytes of device 1's shard of tensor \"col\"",
                  saver::write);
    }
  }

  @Test
  void afterARefusedWriteTheShardsStaySetAndAReplacedOneWrites() throws IOException {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      setShards(saver, 0, 1);
      saver.setShard(1, 1, ByteBuffer.allocateDirect(8));
      assertThrows(TesseraException.class, saver::write);
      saver.setShard(1, 1, direct(box(1, new long[] {0, 8, 4, 8})));
      saver.write();
      saver.finish();
    }
    try (CheckpointIndex index = new CheckpointIndex(dir.toString())) {
      assertEquals(3, index.numTensors());
    }
  }

  @Test
  void aStoredShardWithoutABufferIsAFailedPrecondition() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      assertFails(Code.FAILED_PRECONDITION, "tensor \"row\": no buffer for device 0, which stores [0:4, 0:16]; "
                  + "expected tessera_checkpoint_saver_set_shard for it", saver::write);
    }
  }

  @Test
  void aHeapBufferIsRefusedNamingTheShard() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> saver.setShard(2, 3, ByteBuffer.allocate(64)));
      assertEquals("Argument 'shard' of tensor 2 on device 3 is a heap ByteBuffer; expected a direct ByteBuffer "
                   + "(ByteBuffer.allocateDirect)", e.getMessage());
    }
  }

  @Test
  void aSaverWritesOnce() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      setShards(saver, 0, 1);
      saver.write();
      setShards(saver, 0, 1);
      assertFails(Code.FAILED_PRECONDITION,
                  "Argument 'saver' has written its file; expected a saver that has not (a saver writes once)",
                  saver::write);
    }
  }

  @Test
  void finishIsProcessZerosAndNeedsEveryProcessFile() {
    try (CheckpointSaver p0 = saver(dir, 0, 2);
         CheckpointSaver p1 = saver(dir, 1, 2)) {
      setShards(p0, 0, 2);
      p0.write();
      assertFails(Code.FAILED_PRECONDITION,
                  "Argument 'saver' saves process 1; expected process 0's saver, which writes the index", p1::finish);
      assertFails(Code.FAILED_PRECONDITION, dir.resolve("process-00001-of-00002.safetensors")
                  + ": missing; process 1 has not written its file (finish after every process's write)", p0::finish);
    }
  }

  @Test
  void aTensorMissingFromTheCheckpointIsNotFound() {
    saveJob(dir, 2);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         RestoreRequest request = new RestoreRequest()) {
      request.addTensor("row", "F32", SHAPES[0]);
      request.addTensor("embedding", "F32", SHAPES[0]);
      assertFails(Code.NOT_FOUND, "Tensor 'embedding' is not in the checkpoint " + dir,
                  () -> index.restorePlan(rules, request, null));
    }
  }

  @Test
  void aRequestedShapeOtherThanTheStoredOneIsRefused() {
    saveJob(dir, 2);
    try (CheckpointIndex index = new CheckpointIndex(dir.toString());
         Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         RestoreRequest request = new RestoreRequest()) {
      request.addTensor("col", "F32", new long[] {16, 8});
      assertFails(Code.INVALID_ARGUMENT, "Tensor 'col' is requested with shape [16, 8] but the checkpoint stores "
                  + "shape [8, 16]; expected the same shape", () -> index.restorePlan(rules, request, null));
    }
  }

  @Test
  void aSaveThatDidNotFinishHasNoIndexToOpen() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      setShards(saver, 0, 1);
      saver.write();  // not finished: no index
    }
    assertFails(Code.FAILED_PRECONDITION,
                dir + ": no tessera-index.json; the save did not finish, or " + dir + " is no Tessera checkpoint",
                () -> new CheckpointIndex(dir.toString()));
  }

  /** Fills each part from the global arrays, counting the calls. */
  static final class BoxFill implements ShardFill {
    final List<String> calls = new ArrayList<>();

    @Override
    public boolean fill(long tensor, long device, long[] ranges, long offset, ByteBuffer out) {
      calls.add(NAMES[(int) tensor] + "@" + device + "+" + offset);
      out.put(0, box((int) tensor, ranges), (int) offset, out.capacity());
      return true;
    }
  }

  @Test
  void aStreamedSaveWritesTheSameIndexAsBuffers() throws IOException {
    Path buffers = dir.resolve("buffers");
    Path streamed = dir.resolve("streamed");
    saveJob(buffers, 2);
    BoxFill fill = new BoxFill();
    for (long p = 1; p >= 0; --p) {
      try (CheckpointSaver saver = saver(streamed, p, 2)) {
        saver.stream(fill);
        if (p == 0) saver.finish();
      }
    }
    // Process 1 stores rows [4:8] (device 4); process 0 the rest, by each first holder.
    assertEquals(List.of("row@4+0", "row@0+0", "col@0+0", "col@1+0", "col@2+0", "col@3+0", "bias@0+0"),
                 fill.calls);
    assertEquals(Files.readString(buffers.resolve("tessera-index.json")),
                 Files.readString(streamed.resolve("tessera-index.json")));
    for (String file : new String[] {"process-00000-of-00002.safetensors", "process-00001-of-00002.safetensors"}) {
      assertArrayEquals(Files.readAllBytes(buffers.resolve(file)), Files.readAllBytes(streamed.resolve(file)), file);
    }
  }

  @Test
  void aSmallChunkSizeAsksForEachPieceInParts() {
    BoxFill fill = new BoxFill();
    try (SaveOptions options = new SaveOptions();
         Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         Layout replicated = new Layout(new String[] {null}, mesh)) {
      options.setChunkSize(24);
      try (CheckpointSaver saver = new CheckpointSaver(dir.toString(), options)) {
        saver.addTensor("bias", "F32", replicated, SHAPES[2]);
        saver.stream((tensor, device, ranges, offset, out) -> fill.fill(2, device, ranges, offset, out));
      }
    }
    assertEquals(List.of("bias@0+0", "bias@0+24", "bias@0+48"), fill.calls);
  }

  @Test
  void aFillsBufferIsLittleEndianAsSafetensorsStoresElements() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         Layout replicated = new Layout(new String[] {null}, mesh)) {
      try (CheckpointSaver saver = new CheckpointSaver(dir.toString(), null)) {
        saver.addTensor("bias", "F32", replicated, SHAPES[2]);
        saver.stream((tensor, device, ranges, offset, out) -> {
          for (int i = 0; i < 16; ++i) out.putFloat(i + 0.5f);
          return true;
        });
        saver.finish();
      }
      try (CheckpointIndex index = new CheckpointIndex(dir.toString());
           LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
           RestoreRequest request = new RestoreRequest();
           ReadOptions options = new ReadOptions()) {
        request.addTensor("bias", null, null);
        options.setProcess(0, 8);
        try (ReadPlan plan = index.restorePlan(rules, request, options)) {
          ByteBuffer[] buffers = plan.allocateBuffers();
          plan.execute(buffers);
          float[] values = new float[16];
          buffers[0].order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
          assertArrayEquals(new float[] {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f, 9.5f, 10.5f, 11.5f,
                                         12.5f, 13.5f, 14.5f, 15.5f}, values);
        }
      }
    }
  }

  @Test
  void aFillReturningFalseIsCancelledNamingThePart() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      assertFails(Code.CANCELLED, "the fill callback returned false for device 0 of tensor \"col\" at byte 0",
                  () -> saver.stream((tensor, device, ranges, offset, out) -> tensor != 1));
    }
    assertFalse(Files.exists(dir.resolve("process-00000-of-00001.safetensors")), "a cancelled save leaves no file");
  }

  @Test
  void aFillsExceptionCancelsTheSaveAndIsThrown() {
    IllegalStateException boom = new IllegalStateException("boom");
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> saver.stream((tensor, device, ranges, offset, out) -> { throw boom; }));
      assertSame(boom, e);
      assertEquals(Code.CANCELLED, ((TesseraException) e.getSuppressed()[0]).code());
    }
  }

  @Test
  void aNullFillIsInvalidArgument() {
    try (CheckpointSaver saver = saver(dir, 0, 1)) {
      assertFails(Code.INVALID_ARGUMENT, "Argument 'fill' is null; expected a ShardFill", () -> saver.stream(null));
    }
  }
}
