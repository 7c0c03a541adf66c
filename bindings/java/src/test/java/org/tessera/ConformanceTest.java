// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Conformance vectors (shared/conformance) reproduced through the binding. */
class ConformanceTest {
  // K31: mesh (4, 2) data/model; rules in insertion order; exact key wins.
  @Test
  void k31LayoutMapLookup() {
    try (Mesh mesh = Fixtures.mesh(4, 2, "data", "model");
         LayoutMap map = new LayoutMap(mesh, KeyMatch.SEARCH);
         Layout s2 = new Layout(new String[] {null, "model"}, null);
         Layout s1 = new Layout(new String[] {"model"}, null);
         Layout r2 = new Layout(new String[] {null, null}, null);
         Layout r1 = new Layout(new String[] {null}, null)) {
      map.set("dense/kernel", s2);
      map.set("dense/bias", s1);
      map.set(".*dense.*kernel", r2);
      map.set(".*dense.*bias", r1);
      map.set(".*bias", s1);
      assertEquals(0, map.find("dense/kernel"));
      assertEquals(1, map.find("dense/bias"));
      assertEquals(2, map.find("dense_2/kernel"));
      assertEquals(-1, map.find("conv2d/kernel"));
      assertEquals(4, map.find("conv2d/bias"));
      try (Layout kernel = map.get("dense/kernel"); Layout bias = map.get("conv2d/bias")) {
        assertEquals("P(None, 'model')", kernel.toPartitionSpec());
        assertEquals("P('model',)", bias.toPartitionSpec());
      }
      TesseraException e = org.junit.jupiter.api.Assertions.assertThrows(
          TesseraException.class, () -> map.get("dense_2/bias"));
      assertTrue(e.getMessage().startsWith("Path 'dense_2/bias' matches multiple layout"),
                 e.getMessage());
      assertNull(map.get("conv2d/kernel"));
    }
  }

  // K25: ModelParallel over (2, 4) data/model, batch "data": data layout ("data", None, None).
  @Test
  void k25ModelParallelDataLayout() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "data", "model");
         LayoutMap map = new LayoutMap(mesh, KeyMatch.SEARCH);
         Distribution distribution = Distribution.modelParallel(map, "data", null);
         Layout layout = distribution.dataLayout(new long[] {4, 2, 2});
         Mesh layoutMesh = layout.mesh()) {
      assertEquals(mesh, layoutMesh);
      assertEquals("P('data', None, None)", layout.toPartitionSpec());
    }
  }

  // S3: mesh (2, 4) x/y, P('y', 'x'), global (8, 16), strict.
  @Test
  void s3TransposedAxes() {
    long[][] ranges = {
        {0, 2, 0, 8}, {2, 4, 0, 8}, {4, 6, 0, 8}, {6, 8, 0, 8},
        {0, 2, 8, 16}, {2, 4, 8, 16}, {4, 6, 8, 16}, {6, 8, 8, 16}};
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", "x"}, mesh);
         Sharding sharding = new Sharding(layout, new long[] {8, 16}, ShardMode.STRICT)) {
      assertEquals(8, sharding.numDevices());
      for (int device = 0; device < 8; ++device) {
        assertArrayEquals(ranges[device], sharding.deviceRanges(device), "device " + device);
        assertArrayEquals(new long[] {2, 8}, sharding.shardShape(device));
        assertEquals(0, sharding.replicaId(device));
      }
      assertArrayEquals(new long[] {2, 8}, sharding.maxShardShape());
      assertFalse(sharding.isFullyReplicated());
      assertEquals("{devices=[4,2]<=[2,4]T(1,0)}", layout.toHloSharding(2, true));
      assertEquals("{devices=[4,2]0,4,1,5,2,6,3,7}", layout.toHloSharding(2, false));
      assertEquals("[Shard(dim=1), Shard(dim=0)]", layout.toTorchPlacements());
    }
  }

  // S5: mesh (2, 4) x/y, P(None, 'y'), global (8, 16), strict: x replicates.
  @Test
  void s5PartialReplication() {
    long[] replicaIds = {0, 0, 0, 0, 1, 1, 1, 1};
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = Layout.fromPartitionSpec("P(None, 'y')", mesh, 2);
         Sharding sharding = new Sharding(layout, new long[] {8, 16}, ShardMode.STRICT)) {
      for (int device = 0; device < 8; ++device) {
        long column = device % 4;
        assertArrayEquals(new long[] {0, 8, column * 4, column * 4 + 4},
                          sharding.deviceRanges(device), "device " + device);
        assertEquals(replicaIds[device], sharding.replicaId(device));
      }
      assertEquals(4, sharding.numDistinctShards());
      assertArrayEquals(new long[] {0, 4}, sharding.distinctShardDevices(0));
      assertEquals("{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
                   layout.toHloSharding(2, true));
      assertEquals("[Replicate(), Shard(dim=1)]", layout.toTorchPlacements());
    }
  }

  // The whole index map, flat, agrees with the per-device ranges (S3).
  @Test
  void indexMapMatchesDeviceRanges() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", "x"}, mesh);
         Sharding sharding = new Sharding(layout, new long[] {8, 16}, ShardMode.STRICT)) {
      long[] map = sharding.indexMap();
      assertEquals(8 * 2 * 2, map.length);
      for (int device = 0; device < 8; ++device) {
        long[] ranges = sharding.deviceRanges(device);
        for (int i = 0; i < 4; ++i) assertEquals(ranges[i], map[device * 4 + i]);
      }
      assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7}, sharding.addressableDevices(0));
      assertArrayEquals(new long[] {}, sharding.addressableDevices(1));
    }
  }

  // K59: torch 2.15's DistributedSampler(range(10), num_replicas=4, rank=0, shuffle=True) after set_epoch(1)
  // and set_epoch(2); seed -1 with set_epoch(1) is torch's manual_seed(0).
  @Test
  void k59ShuffledSamplesFollowTheEpoch() {
    assertArrayEquals(new long[] {5, 0, 7}, Distribution.interleaveSamplesShuffled(10, 4, 0, false, 0, 1));
    assertArrayEquals(new long[] {8, 6, 2}, Distribution.interleaveSamplesShuffled(10, 4, 0, false, 0, 2));
    assertArrayEquals(new long[] {7, 9, 6, 1}, Distribution.interleaveSamplesShuffled(10, 3, 2, false, -1, 1));
  }
}
