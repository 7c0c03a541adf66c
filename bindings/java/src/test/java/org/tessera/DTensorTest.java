// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The experimental DTensor layouts, config and mesh queries through the binding. */
class DTensorTest {
  /** A DTensor job's 2-device CPU mesh, as DTensor prints it. */
  private static final String MESH_X2 =
      "|x=2|0,1|0,1|/job:localhost/task:0/device:CPU:0,/job:localhost/task:0/device:CPU:1";
  /** A 2x2 CPU mesh in DTensor's short form. */
  private static final String MESH_XY = "|x=2,y=2|*CPU";

  private static DTensorConfig config(String... variables) {
    try (DTensorConfigOptions options = new DTensorConfigOptions()) {
      options.setVariables(variables);
      options.setNumLocalDevices("CPU", 2);
      return new DTensorConfig(options);
    }
  }

  @Test
  void partedLayoutPrintsBackByteForByte() {
    String text = "parted:x, mesh:" + MESH_X2;
    try (DTensorLayout layout = DTensorLayout.parse(text)) {
      assertEquals(DTensorLayoutType.PARTED, layout.type());
      assertArrayEquals(new String[] {"x"}, layout.specs());
      assertEquals(text, layout.toText());
    }
  }

  @Test
  void singleDeviceLayoutPrintsBackByteForByte() {
    String text = "maximal:true, mesh:/job:localhost/task:1/device:CPU:0";
    try (DTensorLayout layout = DTensorLayout.parse(text); DTensorMesh mesh = layout.mesh()) {
      assertEquals(DTensorLayoutType.SINGLE_DEVICE, layout.type());
      assertEquals(0, layout.numDims());
      assertEquals(text, layout.toText());
      assertEquals("/job:localhost/task:1/device:CPU:0", mesh.singleDevice());
    }
  }

  @Test
  void unknownLayoutPrefixIsDTensorsError() {
    TesseraException e = assertThrows(TesseraException.class,
        () -> DTensorLayout.parse("sharded:x, mesh:" + MESH_X2));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains("Unknown layout type prefix"), e.getMessage());
  }

  @Test
  void toPartedKeepsSpecsAndMesh() {
    try (DTensorLayout layout = DTensorLayout.parse("sharding_specs:x, mesh:" + MESH_X2);
         DTensorLayout parted = layout.toParted()) {
      assertEquals("parted:x, mesh:" + MESH_X2, parted.toText());
    }
  }

  @Test
  void reduceDimsKeepingDimsReplicatesThem() {
    try (DTensorLayout layout = DTensorLayout.parse("sharding_specs:x,y, mesh:" + MESH_XY);
         DTensorLayout reduced = layout.reduceDims(new long[] {0}, true)) {
      assertArrayEquals(new String[] {"unsharded", "y"}, reduced.specs());
    }
  }

  @Test
  void localShapeDividesByTheShardCount() {
    try (DTensorLayout layout = DTensorLayout.parse("sharding_specs:x,unsharded, mesh:" + MESH_XY)) {
      assertArrayEquals(new long[] {5, 7}, layout.localShapeFromGlobal(new long[] {10, 7}));
    }
  }

  @Test
  void globalShapeSumsDynamicLocalShapes() {
    // x,unsharded on x=2,y=2: local devices 0 and 2 hold the two x shards.
    try (DTensorLayout layout = DTensorLayout.parse("sharding_specs:x,unsharded, mesh:" + MESH_XY)) {
      assertArrayEquals(new long[] {7, 5}, layout.globalShapeFromLocal(new long[] {-1, 5},
          new long[] {3, 5}, new long[] {3, 5}, new long[] {4, 5}, new long[] {4, 5}));
    }
  }

  @Test
  void mostShardedMergesTheAxes() {
    try (DTensorLayout a = DTensorLayout.parse("sharding_specs:x,unsharded, mesh:" + MESH_XY);
         DTensorLayout b = DTensorLayout.parse("sharding_specs:unsharded,y, mesh:" + MESH_XY);
         DTensorLayout merged = DTensorLayout.mostSharded(a, b)) {
      assertArrayEquals(new String[] {"x", "y"}, merged.specs());
    }
  }

  @Test
  void layoutsOfTheSameTextAreEqual() {
    try (DTensorLayout a = DTensorLayout.parse("sharding_specs:x, mesh:" + MESH_X2);
         DTensorLayout b = DTensorLayout.parse("sharding_specs:x, mesh:" + MESH_X2);
         DTensorLayout parted = DTensorLayout.parse("parted:x, mesh:" + MESH_X2)) {
      assertEquals(a, b);
      assertEquals(a.hashCode(), b.hashCode());
      assertNotEquals(a, parted);
    }
  }

  @Test
  void meshesEqualFieldByField() {
    try (DTensorMesh a = DTensorMesh.parse(MESH_X2); DTensorMesh b = DTensorMesh.parse(MESH_X2);
         DTensorMesh gpu = a.toDeviceType("GPU")) {
      assertEquals(a, b);
      assertNotEquals(a, gpu);
    }
  }

  @Test
  void meshQueriesByName() {
    try (DTensorMesh mesh = DTensorMesh.parse(MESH_XY)) {
      assertTrue(mesh.hasDim("y"));
      assertFalse(mesh.hasDim("z"));
      assertEquals(1, mesh.dimIndex("y"));
      assertEquals(2, mesh.dimSizeOf("y"));
      assertArrayEquals(new long[] {1, 1}, mesh.coordinates(3));
      assertArrayEquals(new String[] {"/job:localhost/task:0"}, mesh.hosts());
    }
  }

  @Test
  void configReadsClientIdAndJobs() {
    try (DTensorConfig config = config("DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1")) {
      assertEquals(1, config.clientId());
      assertArrayEquals(new String[] {"h0:1", "h1:1"}, config.jobs());
      assertEquals(2, config.numClients());
      assertFalse(config.isLocalMode());
      assertEquals("/job:worker/replica:0/task:1/device:CPU:1", config.localDevice("CPU", -1, 1));
    }
  }

  @Test
  void configClientIdPastTheClientsIsDTensorsError() {
    try (DTensorConfig config = config("DTENSOR_CLIENT_ID=1")) {
      TesseraException e = assertThrows(TesseraException.class, config::clientId);
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Environment variable DTENSOR_CLIENT_ID must be < 1, got 1", e.getMessage());
    }
  }

  @Test
  void meshWithConfigNumbersThisClientsDevices() {
    try (DTensorConfig config = config("DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1");
         DTensorMesh mesh = DTensorMesh.createDistributedWithConfig(new String[] {"x"}, new long[] {4}, "",
             null, "CPU", false, config)) {
      assertEquals(2, mesh.numLocalIds());
      assertEquals(2, mesh.localId(0));
    }
  }
}
