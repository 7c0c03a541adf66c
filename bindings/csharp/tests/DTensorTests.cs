// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The experimental DTensor layouts, config and mesh queries through the binding.
namespace Tessera.Tests {

public static class DTensorTests {
  // A DTensor job's 2-device CPU mesh, as DTensor prints it.
  const string MeshX2 = "|x=2|0,1|0,1|/job:localhost/task:0/device:CPU:0,/job:localhost/task:0/device:CPU:1";
  // A 2x2 CPU mesh in DTensor's short form.
  const string MeshXY = "|x=2,y=2|*CPU";

  static DTensorConfig Config(params string[] variables) {
    using (var options = new DTensorConfigOptions()) {
      options.SetVariables(variables);
      options.SetNumLocalDevices("CPU", 2);
      return new DTensorConfig(options);
    }
  }

  [Test]
  public static void PartedLayoutPrintsBackByteForByte() {
    string text = "parted:x, mesh:" + MeshX2;
    using (var layout = DTensorLayout.Parse(text)) {
      Assert.Equal(DTensorLayoutType.Parted, layout.Type, "type");
      Assert.Equal(new[] {"x"}, layout.Specs, "specs");
      Assert.Equal(text, layout.ToText(), "text");
    }
  }

  [Test]
  public static void SingleDeviceLayoutPrintsBackByteForByte() {
    string text = "maximal:true, mesh:/job:localhost/task:1/device:CPU:0";
    using (var layout = DTensorLayout.Parse(text))
    using (var mesh = layout.Mesh()) {
      Assert.Equal(DTensorLayoutType.SingleDevice, layout.Type, "type");
      Assert.Equal(0L, layout.NumDims, "rank");
      Assert.Equal(text, layout.ToText(), "text");
      Assert.Equal("/job:localhost/task:1/device:CPU:0", mesh.SingleDevice, "device");
    }
  }

  [Test]
  public static void UnknownLayoutPrefixIsDTensorsError() {
    Assert.Throws(Code.InvalidArgument, "Unknown layout type prefix",
                  () => DTensorLayout.Parse("sharded:x, mesh:" + MeshX2));
  }

  [Test]
  public static void ToPartedKeepsSpecsAndMesh() {
    using (var layout = DTensorLayout.Parse("sharding_specs:x, mesh:" + MeshX2))
    using (var parted = layout.ToParted()) {
      Assert.Equal("parted:x, mesh:" + MeshX2, parted.ToText(), "text");
    }
  }

  [Test]
  public static void ReduceDimsKeepingDimsReplicatesThem() {
    using (var layout = DTensorLayout.Parse("sharding_specs:x,y, mesh:" + MeshXY))
    using (var reduced = layout.ReduceDims(new long[] {0}, true)) {
      Assert.Equal(new[] {"unsharded", "y"}, reduced.Specs, "specs");
    }
  }

  [Test]
  public static void LocalShapeDividesByTheShardCount() {
    using (var layout = DTensorLayout.Parse("sharding_specs:x,unsharded, mesh:" + MeshXY)) {
      Assert.Equal(new long[] {5, 7}, layout.LocalShapeFromGlobal(new long[] {10, 7}), "local shape");
    }
  }

  [Test]
  public static void GlobalShapeSumsDynamicLocalShapes() {
    // x,unsharded on x=2,y=2: local devices 0 and 2 hold the two x shards.
    using (var layout = DTensorLayout.Parse("sharding_specs:x,unsharded, mesh:" + MeshXY)) {
      Assert.Equal(new long[] {7, 5}, layout.GlobalShapeFromLocal(new long[] {-1, 5}, new long[] {3, 5},
                                                                 new long[] {3, 5}, new long[] {4, 5},
                                                                 new long[] {4, 5}), "global shape");
    }
  }

  [Test]
  public static void MostShardedMergesTheAxes() {
    using (var a = DTensorLayout.Parse("sharding_specs:x,unsharded, mesh:" + MeshXY))
    using (var b = DTensorLayout.Parse("sharding_specs:unsharded,y, mesh:" + MeshXY))
    using (var merged = DTensorLayout.MostSharded(a, b)) {
      Assert.Equal(new[] {"x", "y"}, merged.Specs, "specs");
    }
  }

  [Test]
  public static void LayoutsOfTheSameTextAreEqual() {
    using (var a = DTensorLayout.Parse("sharding_specs:x, mesh:" + MeshX2))
    using (var b = DTensorLayout.Parse("sharding_specs:x, mesh:" + MeshX2))
    using (var parted = DTensorLayout.Parse("parted:x, mesh:" + MeshX2)) {
      Assert.True(a == b, "a == b");
      Assert.Equal(a.GetHashCode(), b.GetHashCode(), "hash");
      Assert.True(a != parted, "a != parted");
    }
  }

  [Test]
  public static void MeshesEqualFieldByField() {
    using (var a = DTensorMesh.Parse(MeshX2))
    using (var b = DTensorMesh.Parse(MeshX2))
    using (var gpu = a.ToDeviceType("GPU")) {
      Assert.True(a == b, "a == b");
      Assert.True(a != gpu, "a != its GPU mesh");
    }
  }

  [Test]
  public static void MeshQueriesByName() {
    using (var mesh = DTensorMesh.Parse(MeshXY)) {
      Assert.True(mesh.HasDim("y"), "has y");
      Assert.True(!mesh.HasDim("z"), "has no z");
      Assert.Equal(1L, mesh.DimIndex("y"), "index of y");
      Assert.Equal(2L, mesh.DimSizeOf("y"), "size of y");
      Assert.Equal(new long[] {1, 1}, mesh.Coordinates(3), "coordinates of 3");
      Assert.Equal(new[] {"/job:localhost/task:0"}, mesh.Hosts, "hosts");
    }
  }

  [Test]
  public static void ConfigReadsClientIdAndJobs() {
    using (var config = Config("DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1")) {
      Assert.Equal(1L, config.ClientId(), "client id");
      Assert.Equal(new[] {"h0:1", "h1:1"}, config.Jobs(), "jobs");
      Assert.Equal(2L, config.NumClients(), "clients");
      Assert.True(!config.IsLocalMode(), "not local mode");
      Assert.Equal("/job:worker/replica:0/task:1/device:CPU:1", config.LocalDevice("CPU", -1, 1), "device 1");
    }
  }

  [Test]
  public static void ConfigClientIdPastTheClientsIsDTensorsError() {
    using (var config = Config("DTENSOR_CLIENT_ID=1")) {
      var e = Assert.Throws(Code.InvalidArgument, "", () => config.ClientId());
      Assert.Equal("Environment variable DTENSOR_CLIENT_ID must be < 1, got 1", e.Message, "message");
    }
  }

  [Test]
  public static void MeshWithConfigNumbersThisClientsDevices() {
    using (var config = Config("DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1"))
    using (var mesh = DTensorMesh.CreateDistributedWithConfig(new[] {"x"}, new long[] {4}, "", null, "CPU", false,
                                                              config)) {
      Assert.Equal(2L, mesh.NumLocalIds, "local ids");
      Assert.Equal(2L, mesh.LocalId(0), "first local id");
    }
  }
}

}  // namespace Tessera.Tests
