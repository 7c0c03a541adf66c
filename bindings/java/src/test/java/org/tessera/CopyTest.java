// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

/**
 * Host scatter and gather (copy.h): an [8, 3] int32 array on a 2x4 mesh
 * ("x", "y"), dimension 0 sharded over "y", dimension 1 replicated; so each
 * device holds 2 rows of 3, and the two devices of each "y" column are
 * replicas of each other.
 */
class CopyTest {
  private static final long INT32 = 4;
  private static final long GLOBAL_BYTES = 8 * 3 * INT32;

  /** Element (row, column) is row * 3 + column. */
  private static byte[] global() {
    return int32s(0, 24);
  }

  /** The int32 values first, first + 1, ... (count of them), native order. */
  private static byte[] int32s(int first, int count) {
    ByteBuffer buffer = ByteBuffer.allocate(count * 4).order(ByteOrder.nativeOrder());
    for (int i = 0; i < count; ++i) buffer.putInt(first + i);
    return buffer.array();
  }

  private static Sharding sharding(Mesh mesh, Layout layout) {
    return new Sharding(layout, new long[] {8, 3}, ShardMode.STRICT);
  }

  @Test
  void scatterGivesEachDeviceItsRowsInDeviceOrder() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      byte[][] shards = sharding.scatter(global(), INT32);
      assertEquals(8, shards.length);
      // Device 5 is (x 1, y 1): rows 2 and 3, elements 6..11.
      assertArrayEquals(int32s(6, 6), shards[5]);
      // Its replica along "x" is device 1.
      assertArrayEquals(shards[5], shards[1]);
    }
  }

  @Test
  void gatherOfScatterIsTheGlobalArray() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout);
         CopyOptions options = new CopyOptions()) {
      options.setThreads(4);
      options.setVerifyReplicas(true);
      byte[][] shards = sharding.scatter(global(), INT32, options);
      assertArrayEquals(global(), sharding.gather(shards, INT32, GLOBAL_BYTES, options));
    }
  }

  @Test
  void floatArraysScatterAndGatherByElement() {
    float[] global = new float[24];
    for (int i = 0; i < global.length; ++i) global[i] = i + 0.5f;
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      float[][] shards = sharding.scatter(global, null);
      assertArrayEquals(new float[] {6.5f, 7.5f, 8.5f, 9.5f, 10.5f, 11.5f}, shards[5]);
      assertArrayEquals(global, sharding.gather(shards, global.length, null));
    }
  }

  @Test
  void int64ArraysScatterAndGatherByElement() {
    long[] global = new long[24];
    for (int i = 0; i < global.length; ++i) global[i] = (1L << 40) + i;
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      long[][] shards = sharding.scatter(global, null);
      assertArrayEquals(java.util.Arrays.copyOfRange(global, 6, 12), shards[5]);
      assertArrayEquals(global, sharding.gather(shards, global.length, null));
    }
  }

  @Test
  void gatherWithVerifiedReplicasRejectsDifferingReplicas() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout);
         CopyOptions options = new CopyOptions()) {
      options.setVerifyReplicas(true);
      byte[][] shards = sharding.scatter(global(), INT32);
      shards[5][0] ^= 1;
      TesseraException e = assertThrows(TesseraException.class,
          () -> sharding.gather(shards, INT32, GLOBAL_BYTES, options));
      assertEquals(Code.DATA_LOSS, e.code());
    }
  }

  @Test
  void gatherRejectsAShardOfTheWrongSize() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      byte[][] shards = sharding.scatter(global(), INT32);
      shards[3] = new byte[8];
      TesseraException e = assertThrows(TesseraException.class,
          () -> sharding.gather(shards, INT32, GLOBAL_BYTES));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'shards[3]' must have 24 bytes (device 3's shard), got 8 bytes",
                   e.getMessage());
    }
  }

  @Test
  void gatherRejectsTheWrongShardCount() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      TesseraException e = assertThrows(TesseraException.class,
          () -> sharding.gather(new byte[3][], INT32, GLOBAL_BYTES));
      assertEquals("Argument 'shards' must have 8 entries (one per device), got 3",
                   e.getMessage());
    }
  }

  @Test
  void scatterOfAGlobalArrayOfTheWrongSizeIsTheLibrarysInvalidArgument() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Sharding sharding = sharding(mesh, layout)) {
      TesseraException e = assertThrows(TesseraException.class,
          () -> sharding.scatter(new byte[10], INT32));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertTrue(e.getMessage().contains("global_size"), e.getMessage());
    }
  }

  @Test
  void closedOptionsAreInvalidArgument() {
    CopyOptions options = new CopyOptions();
    options.close();
    TesseraException e = assertThrows(TesseraException.class, () -> options.setThreads(2));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
  }
}
