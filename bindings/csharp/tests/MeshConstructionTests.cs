// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The framework mesh constructors and local device discovery through the
// binding (S45: PyTorch DeviceMesh arithmetic, world size 8).
using System;
using System.Linq;

namespace Tessera.Tests {

public static class MeshConstructionTests {
  static readonly string[] Devs8 = Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray();

  static Mesh DpTp() { return Mesh.Make(new long[] {2, 4}, new[] {"dp", "tp"}, Devs8, ""); }

  [Test]
  public static void TpSubmeshOfRankSixIsItsRow() { // S45
    using (var mesh = DpTp())
    using (var tp = mesh.Submesh(new[] {"tp"}, 6)) {
      Assert.Equal("tp", tp.AxisName(0), "axis name");
      Assert.Equal(new long[] {4, 5, 6, 7}, tp.XlaDeviceOrder(), "devices");
    }
  }

  [Test]
  public static void RankSixHasCoordinateOneTwoAndLocalRanks() { // S45
    using (var mesh = DpTp()) {
      Assert.Equal(new long[] {1, 2}, mesh.CoordinateOf(6), "coordinate");
      Assert.Equal(1L, mesh.LocalRank("dp", 6), "dp local rank");
      Assert.Equal(2L, mesh.LocalRank("tp", 6), "tp local rank");
    }
  }

  [Test]
  public static void DpGroupsAreTheColumns() { // S45
    using (var mesh = DpTp()) {
      Assert.Equal(new long[] {0, 4, 1, 5, 2, 6, 3, 7}, mesh.AxisGroups("dp"), "dp groups");
    }
  }

  [Test]
  public static void MakeMeshWithTooFewDevicesIsJaxsMessage() {
    Assert.Throws(Code.InvalidArgument, "Number of devices 6 must be >= the product of mesh_shape (2, 4)",
                  () => Mesh.Make(new long[] {2, 4}, new[] {"a", "b"}, Devs8.Take(6).ToArray(), ""));
  }

  [Test]
  public static void TesseraDevicesGivesTwoTestGpusFirst() {
    // Mono's SetEnvironmentVariable is setenv: discovery in C sees it.
    Environment.SetEnvironmentVariable("TESSERA_DEVICES", "gpu*2:Test GPU");
    try {
      using (var devices = new LocalDevices()) {
        long gpus = 0;
        for (long i = 0; i < devices.NumDevices; ++i) {
          if (devices.Platform(i) != Platform.Gpu) continue;
          Assert.Equal("Test GPU", devices.Kind(i), "kind of GPU " + i);
          Assert.Equal(gpus, devices.Ordinal(i), "ordinal of GPU " + i);
          ++gpus;
        }
        Assert.Equal(2L, gpus, "GPU count");
        Assert.Equal(Platform.Gpu, devices.Platform(0), "first device");
      }
    } finally {
      Environment.SetEnvironmentVariable("TESSERA_DEVICES", null);
    }
  }

  [Test]
  public static void CreateDeviceMeshNeedsExactlyTheProductOfTheShape() {
    Assert.Throws(Code.InvalidArgument, "Number of devices 8 must equal the product of mesh_shape (2, 2)",
                  () => Mesh.CreateDeviceMesh(new long[] {2, 2}, new[] {"x", "y"}, Devs8, "", false, false));
  }

  [Test]
  public static void DeviceProcessesAreTheHybridMeshsGranules() { // S43: a job not running here, 4 GPUs per process
    using (var options = new MeshOptions()) {
      options.SetDevices(Enumerable.Range(0, 8).Select(i => "gpu:" + i).ToArray());
      options.SetDeviceProcesses(new long[] {0, 0, 0, 0, 1, 1, 1, 1});
      using (var mesh = Mesh.MakeHybridWithOptions(new long[] {2, 2}, new long[] {1, 2}, new[] {"a", "b"}, options)) {
        Assert.Equal(new long[] {0, 1, 4, 5, 2, 3, 6, 7}, mesh.XlaDeviceOrder(), "devices");
        var processes = new long[8];
        for (int i = 0; i < 8; ++i) {
          using (var device = mesh.Device(i)) processes[i] = device.ProcessIndex;
        }
        Assert.Equal(new long[] {0, 0, 1, 1, 0, 0, 1, 1}, processes, "processes");
      }
    }
  }

  [Test]
  public static void TpuAxisAssignmentIsJaxsMatrix() { // S41
    var got = Mesh.TpuAxisAssignment(new long[] {4, 4, 4}, new long[] {1, 16, 4}, false);
    Assert.Equal(new long[] {1, 1, 4, 1, 4, 1, 1, 4, 1}, got, "assignment");
  }

  [Test]
  public static void HloShardingPrintsAsXlaAndManualHasNoLayout() {
    using (var h = new HloSharding("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}")) {
      Assert.Equal("{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}", h.ToText(), "text");
      Assert.Equal(2, h.Kind(), "kind");
      Assert.Equal(new long[] {4, 0}, h.SubgroupTypes(), "subgroup types");
      Assert.Equal(new long[] {1, 1, 2, 2}, h.TileDims(), "tile dims");
      Assert.Equal(new long[] {0, 2, 1, 3}, h.TileDevices(), "tile devices");
    }
    using (var manual = new HloSharding("{manual}"))
    using (var mesh = DpTp()) {
      Assert.Throws(Code.InvalidArgument, "'manual' sharding has no layout equivalent", () => manual.ToLayout(mesh, 2));
    }
  }
}

}  // namespace Tessera.Tests
