// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every handle type is created, used and destroyed (the cluster ones: ClusterTest). */
class HandleTest {
  @Test
  void loadedLibraryServesThisBinding() {
    assertNull(Tessera.versionProblem(Tessera.version()));
  }

  @Test
  void olderMinorOrOtherMajorIsRefusedNamingBothVersions() {
    assertEquals("libtessera 0.1.99 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older", Tessera.versionProblem(199));
    assertEquals("libtessera 1.2.0 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older", Tessera.versionProblem(10200));
    assertNull(Tessera.versionProblem(300));
  }

  @Test
  void deviceParsedAndClosed() {
    try (Device device = Device.parse("gpu:3")) {
      assertEquals(3, device.id());
      assertEquals(Platform.GPU, device.platform());
      assertEquals("gpu:3", device.name());
    }
  }

  @Test
  void deviceListOfTheCpus() {
    try (DeviceList list = new DeviceList("cpu"); Device first = list.get(0)) {
      assertEquals(8, list.numDevices());  // TESSERA_CPU_DEVICE_COUNT=8 in the test environment
      assertEquals("cpu:0", first.name());
      assertEquals(8, DeviceList.count("cpu"));
    }
  }

  @Test
  void meshCreatedAndQueried() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model"); Device device = mesh.device(5)) {
      assertEquals(2, mesh.numAxes());
      assertEquals(8, mesh.numDevices());
      assertEquals(4, mesh.axisSize("model"));
      assertEquals(1, mesh.axisIndex("model"));
      assertEquals(5, device.id());
      assertEquals("<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>", mesh.toString());
    }
  }

  @Test
  void layoutCreatedWithoutMeshAndGivenOne() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         Layout free = new Layout(new String[] {null, "model"}, null);
         Layout placed = free.withMesh(mesh);
         Mesh back = placed.mesh()) {
      assertNull(free.mesh());
      assertEquals(mesh, back);
      assertEquals(4, placed.shardCount(1));
    }
  }

  @Test
  void layoutMapSetGetRemove() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         LayoutMap map = new LayoutMap(mesh, KeyMatch.SEARCH);
         Layout layout = new Layout(new String[] {"model"}, null)) {
      map.set("bias", layout);
      assertEquals(1, map.numRules());
      assertEquals("bias", map.key(0));
      map.remove("bias");
      assertEquals(0, map.numRules());
      assertEquals(KeyMatch.SEARCH, map.match());
    }
  }

  @Test
  void distributionOptionsDistributionAndDatasetPlan() {
    try (Mesh mesh = new Mesh(new long[] {8}, new String[] {"batch"}, Fixtures.cpus(8));
         DistributionOptions options = new DistributionOptions()) {
      options.setProcess(2, 1);
      try (Distribution distribution = Distribution.dataParallel(mesh, options);
           DatasetPlan plan = distribution.planDataset(64)) {
        assertEquals(DistributionKind.DATA_PARALLEL, distribution.kind());
        assertEquals(DatasetPlanKind.SHARD, plan.kind());
        assertEquals(2, plan.numShards());
        assertEquals(1, plan.shardIndex());
        assertEquals(32, plan.perProcessBatchSize());
      }
    }
  }

  @Test
  void shardingAndReshardPlan() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout rows = new Layout(new String[] {"x", null}, mesh);
         Layout columns = new Layout(new String[] {null, "y"}, mesh);
         Sharding source = new Sharding(rows, new long[] {8, 16}, ShardMode.STRICT);
         Sharding destination = new Sharding(columns, new long[] {8, 16}, ShardMode.STRICT);
         ReshardPlan plan = new ReshardPlan(source, destination, 4)) {
      assertEquals(2, plan.numDims());
      assertTrue(plan.numTransfers() > 0);
      // Every destination device receives its whole (8, 4) shard of 4-byte elements.
      assertEquals(8 * (8 * 4) * 4,
                   plan.totalBytes(TransferLocality.SAME_DEVICE)
                       + plan.totalBytes(TransferLocality.SAME_PROCESS)
                       + plan.totalBytes(TransferLocality.CROSS_PROCESS));
    }
  }

  @Test
  void dtensorMeshParsedAndConverted() {
    try (DTensorMesh dtensor = DTensorMesh.parse("|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,"
                                                 + "/job:localhost/replica:0/task:0/device:CPU:1");
         Mesh mesh = dtensor.toMesh()) {
      assertEquals(DTensorMeshKind.TILE, dtensor.kind());
      assertEquals("x", dtensor.dimName(0));
      assertEquals(2, mesh.numDevices());
    }
  }

  @Test
  void closeTwiceIsHarmless() {
    Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
    mesh.close();
    mesh.close();
  }

  @Test
  void closedHandleIsInvalidArgumentNotACrash() {
    Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
    mesh.close();
    assertEquals(0, mesh.numAxes());
    TesseraException e = assertThrows(TesseraException.class, () -> mesh.axisName(0));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
  }

  @Test
  void closingAMeshKeepsItsLayoutsUsable() {
    Layout layout;
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      layout = new Layout(new String[] {"x", "y"}, mesh);
    }
    try (Layout l = layout; Mesh kept = l.mesh()) {
      assertNotNull(kept);
      assertEquals(8, kept.numDevices());
    }
  }

  @Test
  void versionMatchesTheLibrary() {
    assertEquals(Tessera.versionString(),
                 Tessera.version() / 10000 + "." + Tessera.version() / 100 % 100 + "."
                     + Tessera.version() % 100);
    assertEquals("INVALID_ARGUMENT", Tessera.codeName(Code.INVALID_ARGUMENT));
    assertEquals("tpu", Tessera.platformName(Platform.TPU));
  }
}
