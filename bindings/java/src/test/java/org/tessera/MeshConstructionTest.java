// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The framework mesh constructors through the binding (S45: PyTorch DeviceMesh, world size 8). */
class MeshConstructionTest {
  private static Mesh dpTp() {
    return Mesh.make(new long[] {2, 4}, new String[] {"dp", "tp"}, Fixtures.cpus(8), "");
  }

  @Test
  void tpSubmeshOfRankSixIsItsRow() { // S45
    try (Mesh mesh = dpTp(); Mesh tp = mesh.submesh(new String[] {"tp"}, 6)) {
      assertArrayEquals(new String[] {"tp"}, tp.axisNames());
      assertArrayEquals(new long[] {4, 5, 6, 7}, tp.xlaDeviceOrder());
    }
  }

  @Test
  void rankSixHasCoordinateOneTwoAndLocalRanks() { // S45
    try (Mesh mesh = dpTp()) {
      assertArrayEquals(new long[] {1, 2}, mesh.coordinateOf(6));
      assertEquals(1, mesh.localRank("dp", 6));
      assertEquals(2, mesh.localRank("tp", 6));
    }
  }

  @Test
  void dpGroupsAreTheColumns() { // S45
    try (Mesh mesh = dpTp()) {
      assertArrayEquals(new long[] {0, 4, 1, 5, 2, 6, 3, 7}, mesh.axisGroups("dp"));
    }
  }

  @Test
  void deviceOutsideTheMeshHasNoCoordinate() { // S45
    try (Mesh mesh = dpTp()) {
      assertArrayEquals(new long[0], mesh.coordinateOf(42));
    }
  }

  @Test
  void tooFewDevicesIsJaxsMessage() {
    TesseraException e = assertThrows(TesseraException.class,
        () -> Mesh.make(new long[] {2, 4}, new String[] {"a", "b"}, Fixtures.cpus(6), ""));
    assertEquals("Number of devices 6 must be >= the product of mesh_shape (2, 4)", e.getMessage());
  }

  @Test
  void dtensorCreateMeshNumbersDevicesRowMajor() {
    try (DTensorMesh mesh = DTensorMesh.create(new String[] {"x", "y"}, new long[] {2, 2}, "m",
             new String[] {"CPU:0", "CPU:1", "CPU:2", "CPU:3"}, "CPU", false)) {
      assertEquals(2, mesh.numDims());
      assertEquals("m", mesh.name());
      assertEquals(4, mesh.numGlobalIds());
      assertEquals(3, mesh.globalId(3));
    }
  }

  @Test
  void createDeviceMeshNeedsExactlyTheProductOfTheShape() {
    TesseraException e = assertThrows(TesseraException.class,
        () -> Mesh.createDeviceMesh(new long[] {2, 2}, new String[] {"x", "y"}, Fixtures.cpus(8), "", false, false));
    assertEquals("Number of devices 8 must equal the product of mesh_shape (2, 2)", e.getMessage());
  }

  @Test
  void deviceProcessesAreTheHybridMeshsGranules() { // S43: a job not running here, 4 GPUs per process
    try (MeshOptions options = new MeshOptions()) {
      options.setDevices(new String[] {"gpu:0", "gpu:1", "gpu:2", "gpu:3", "gpu:4", "gpu:5", "gpu:6", "gpu:7"});
      options.setDeviceProcesses(new long[] {0, 0, 0, 0, 1, 1, 1, 1});
      try (Mesh mesh = Mesh.makeHybridWithOptions(new long[] {2, 2}, new long[] {1, 2}, new String[] {"a", "b"},
               options)) {
        assertArrayEquals(new long[] {0, 1, 4, 5, 2, 3, 6, 7}, mesh.xlaDeviceOrder());
        long[] processes = new long[8];
        for (int i = 0; i < 8; ++i) {
          try (Device device = mesh.device(i)) {
            processes[i] = device.processIndex();
          }
        }
        assertArrayEquals(new long[] {0, 0, 1, 1, 0, 0, 1, 1}, processes);
      }
    }
  }

  @Test
  void tpuAxisAssignmentIsJaxsMatrix() { // S41
    assertArrayEquals(new long[] {1, 1, 4, 1, 4, 1, 1, 4, 1},
        Mesh.tpuAxisAssignment(new long[] {4, 4, 4}, new long[] {1, 16, 4}, false));
  }

  @Test
  void hloShardingPrintsAsXlaAndManualHasNoLayout() {
    try (HloSharding h = new HloSharding("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}")) {
      assertEquals("{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}", h.toText());
      assertEquals(2, h.kind());
      assertArrayEquals(new long[] {4, 0}, h.subgroupTypes());
      assertArrayEquals(new long[] {1, 1, 2, 2}, h.tileDims());
      assertArrayEquals(new long[] {0, 2, 1, 3}, h.tileDevices());
    }
    try (HloSharding manual = new HloSharding("{manual}"); Mesh mesh = dpTp()) {
      TesseraException e = assertThrows(TesseraException.class, () -> manual.toLayout(mesh, 2));
      assertEquals("HloSharding {manual}: 'manual' sharding has no layout equivalent (a layout says which part "
                   + "of the tensor each device holds)", e.getMessage());
    }
  }
}
