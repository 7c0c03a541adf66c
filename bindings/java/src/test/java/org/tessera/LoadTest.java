// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReadPlan: process 0 of 2 of a checkpoint whose data byte i is i: w U8 [4, 6]
 * (data [0, 24)) with the rule w -> (x, y) on a 2x2 mesh, and b U8 [6] (data
 * [24, 30)) with no rule (replicated). The process owns devices 0 (x0, y0)
 * and 1 (x0, y1): w's rows [0, 2), columns [0, 3) and [3, 6), and b on each.
 */
class LoadTest {
  static final String HEADER = "{\"w\":{\"dtype\":\"U8\",\"shape\":[4,6],\"data_offsets\":[0,24]},"
      + "\"b\":{\"dtype\":\"U8\",\"shape\":[6],\"data_offsets\":[24,30]}}";
  /** Each piece's bytes, numpy's array[box].tobytes() of the bytes written. */
  static final byte[][] SHARDS = {
      {0, 1, 2, 6, 7, 8}, {24, 25, 26, 27, 28, 29}, {3, 4, 5, 9, 10, 11}, {24, 25, 26, 27, 28, 29}};

  @TempDir Path dir;

  /** The plan, with `configure` applied to its options after setProcess(0, 2). */
  private ReadPlan plan(java.util.function.Consumer<ReadOptions> configure) throws IOException {
    Path path = CheckpointTest.writeSafetensors(dir.resolve("model.safetensors"), HEADER, 30);
    try (Checkpoint checkpoint = new Checkpoint(path.toString());
         Mesh mesh = Fixtures.mesh(2, 2, "x", "y");
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout rowsAndColumns = new Layout(new String[] {"x", "y"}, mesh);
         ReadOptions options = new ReadOptions()) {
      rules.set("w", rowsAndColumns);
      options.setProcess(0, 2);
      configure.accept(options);
      return new ReadPlan(checkpoint, rules, options);
    }
  }

  private static byte[][] contents(ByteBuffer[] buffers) {
    byte[][] bytes = new byte[buffers.length][];
    for (int i = 0; i < buffers.length; ++i) {
      bytes[i] = new byte[buffers[i].capacity()];
      buffers[i].get(0, bytes[i]);
    }
    return bytes;
  }

  @Test
  void aReadPlanHasOnePiecePerDeviceOfTheProcessAndTensor() throws IOException {
    try (ReadPlan plan = plan(options -> {})) {
      List<ReadPiece> pieces = plan.pieces();
      assertEquals(4, pieces.size());
      long[][] expected = {{0, 0, 0, 2, 0, 3}, {0, 1, 0, 6}, {1, 0, 0, 2, 3, 6}, {1, 1, 0, 6}};
      for (int i = 0; i < 4; ++i) {
        ReadPiece p = pieces.get(i);
        long[] got = new long[2 + p.ranges().length];
        got[0] = p.device();
        got[1] = p.tensor();
        System.arraycopy(p.ranges(), 0, got, 2, p.ranges().length);
        assertArrayEquals(expected[i], got, "piece " + i + ": device, tensor, ranges");
        assertEquals(6, p.size(), "piece " + i + " size");
      }
    }
  }

  @Test
  void aReadPlanReadsEachFileRangeOnceWithoutGaps() throws IOException {
    try (ReadPlan plan = plan(options -> options.setCoalesceGap(0))) {
      long start = 8 + HEADER.length();
      assertArrayEquals(new long[] {start, start + 12, start + 24, start + 30}, plan.fileRanges(0));
      assertEquals(18, plan.totalBytes());
    }
  }

  @Test
  void executeFillsEachDirectBufferWithItsShardsBytes() throws IOException {
    try (ReadPlan plan = plan(options -> {})) {
      ByteBuffer[] buffers = plan.allocateBuffers();
      assertEquals(30, plan.execute(buffers));
      assertArrayEquals(SHARDS, contents(buffers));
    }
  }

  @Test
  void aHeapBufferIsRefusedNamingIt() throws IOException {
    try (ReadPlan plan = plan(options -> {})) {
      ByteBuffer[] buffers = plan.allocateBuffers();
      buffers[2] = ByteBuffer.allocate(6);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.execute(buffers));
      assertEquals("Argument 'buffers[2]' is a heap ByteBuffer; expected a direct, writable ByteBuffer "
                   + "(ByteBuffer.allocateDirect)", e.getMessage());
    }
  }

  @Test
  void aBufferOfTheWrongSizeIsInvalidArgumentNamingIt() throws IOException {
    try (ReadPlan plan = plan(options -> {})) {
      ByteBuffer[] buffers = plan.allocateBuffers();
      buffers[1] = ByteBuffer.allocateDirect(5);
      TesseraException e = assertThrows(TesseraException.class, () -> plan.execute(buffers));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'sizes[1]' is 5; expected 6, the bytes of piece 1", e.getMessage());
    }
  }

  @Test
  void aProgressThatReturnsFalseCancelsTheLoad() throws IOException {
    try (ReadPlan plan = plan(options -> {
      options.setCoalesceGap(0);
      options.setThreads(1);
    })) {
      TesseraException e = assertThrows(TesseraException.class,
          () -> plan.execute((done, total) -> false, plan.allocateBuffers()));
      assertEquals(Code.CANCELLED, e.code());
      assertEquals("The progress callback cancelled the load after 12 of 18 bytes", e.getMessage());
    }
  }

  @Test
  void aConsumerGetsEveryByteOfEveryPieceOnce() throws IOException {
    try (ReadPlan plan = plan(options -> {})) {
      byte[][] got = new byte[4][6];
      for (byte[] piece : got) java.util.Arrays.fill(piece, (byte) -1);
      List<Long> progress = new ArrayList<>();
      long read = plan.execute((piece, offset, bytes) -> {
        synchronized (got) {
          for (int i = 0; bytes.hasRemaining(); ++i) {
            assertEquals(-1, got[(int) piece][(int) offset + i], "delivered twice");
            got[(int) piece][(int) offset + i] = bytes.get();
          }
        }
        return true;
      }, (done, total) -> progress.add(done) && total == 30);
      assertEquals(30, read);
      assertArrayEquals(SHARDS, got);
      assertEquals(30L, progress.get(progress.size() - 1));
    }
  }

  @Test
  void aConsumersExceptionCancelsTheLoadAndIsThrown() throws IOException {
    IllegalStateException boom = new IllegalStateException("boom");
    try (ReadPlan plan = plan(options -> options.setThreads(1))) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> plan.execute((piece, offset, bytes) -> { throw boom; }, null));
      assertSame(boom, e);
      assertEquals(Code.CANCELLED, ((TesseraException) e.getSuppressed()[0]).code());
    }
  }
}
