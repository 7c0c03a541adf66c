// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The binding's behaviour: handles, errors, arrays and strings, and
// conformance vectors reproduced through it.
using System;
using System.Linq;

namespace Tessera.Tests {

public static class BindingTests {
  static readonly string[] Devs8 = Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray();

  static Mesh Mesh42(string a = "data", string b = "model") {
    return new Mesh(new long[] {4, 2}, new[] {a, b}, Devs8);
  }

  /* ---- handles ---------------------------------------------------------- */

  [Test]
  public static void EveryHandleTypeIsCreatedAndDisposed() {
    var mesh = Mesh42();
    var layout = new Layout(new[] {null, "model"}, mesh);
    var map = new LayoutMap(mesh, KeyMatch.Search);
    var options = new DistributionOptions();
    options.SetProcess(2, 1);
    var distribution = Distribution.ModelParallel(map, "data", options);
    var plan = distribution.PlanDataset(8);
    var sharding = new Sharding(layout, new long[] {8, 16}, ShardMode.Strict);
    var reshard = new ReshardPlan(sharding, sharding, 4);
    var device = Device.Parse("cpu:3");
    var devices = new DeviceList("cpu");
    var dtensorMesh = DTensorMesh.FromMesh(mesh, "mesh", 0, false);
    // The cluster handles: ClusterTests.ClusterHandlesAreCreatedAndDisposed.
    DisposeTwice(mesh, layout, map, options, distribution, plan, sharding, reshard, device, devices, dtensorMesh);
  }

  internal static void DisposeTwice(params IDisposable[] handles) {
    foreach (var handle in handles) handle.Dispose();
    foreach (var handle in handles) {
      Assert.True((bool)handle.GetType().GetProperty("IsDisposed").GetValue(handle), handle.GetType().Name + " disposed");
      handle.Dispose();  // a second Dispose is a no-op
    }
  }

  [Test]
  public static void DisposedHandleIsANullArgumentNotACrash() {
    var mesh = Mesh42();
    mesh.Dispose();
    Assert.Equal(0L, mesh.NumAxes, "rank of a disposed mesh (C's NULL answer)");
    Assert.Throws(Code.InvalidArgument, "Argument 'mesh' is NULL", () => mesh.AxisName(0));
  }

  [Test]
  public static void UsingStatementDisposes() {
    Mesh kept;
    using (var mesh = Mesh42()) {
      kept = mesh;
      Assert.Equal(8L, mesh.NumDevices, "number of devices");
    }
    Assert.True(kept.IsDisposed, "disposed at the end of using");
  }

  /* ---- version ---------------------------------------------------------- */

  [Test]
  public static void LoadedLibraryServesThisBinding() {
    Assert.Null(Library.VersionProblem(Library.Version), "version problem of the loaded library");
    Assert.Equal(200L, Library.Version);
    Assert.Equal("0.2.0", Library.VersionString);
  }

  [Test]
  public static void OlderMinorOrOtherMajorIsRefusedNamingBothVersions() {
    Assert.Equal("libtessera 0.1.99 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older", Library.VersionProblem(199));
    Assert.Equal("libtessera 1.2.0 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older", Library.VersionProblem(10200));
    Assert.Null(Library.VersionProblem(300), "a newer minor");
  }

  /* ---- errors ----------------------------------------------------------- */

  [Test]
  public static void NullArgumentIsInvalidArgumentNamingIt() {
    using (var layout = new Layout(new[] {"model"}, null)) {
      Assert.Throws(Code.InvalidArgument, "Argument 'mesh' is NULL", () => layout.WithMesh(null));
    }
  }

  [Test]
  public static void UnknownAxisIsInvalidArgumentListingTheAxes() {
    using (var mesh = new Mesh(new long[] {8}, new[] {"data"}, Devs8)) {
      var e = Assert.Throws(Code.InvalidArgument, "", () => new Layout(new[] {"model"}, mesh));
      Assert.Equal("Invalid axis names for Layout. Valid axis names: {'data'}, Got {'model'}", e.Message, "message");
    }
  }

  [Test]
  public static void InvalidPatternIsInvalidArgumentNamingTheKey() {
    using (var map = new LayoutMap(null, KeyMatch.Search))
    using (var layout = new Layout(new[] {null, "model"}, null)) {
      Assert.Throws(Code.InvalidArgument, "Argument 'key' 'dense[0' is not a valid Python regular expression: unterminated character set at position 5",
                    () => map.Set("dense[0", layout));
      Assert.Equal(0L, map.NumRules, "nothing inserted");
    }
  }

  [Test]
  public static void IndivisibleShapeIsInvalidArgument() {
    using (var mesh = Mesh42())
    using (var layout = new Layout(new[] {null, "data"}, mesh)) {
      Assert.Throws(Code.InvalidArgument,
                    "implies that array axis 1 is partitioned 4 times, but the dimension size is 10",
                    () => new Sharding(layout, new long[] {8, 10}, ShardMode.Strict));
    }
  }

  [Test]
  public static void MeshWithWrongDeviceCountIsInvalidArgument() {
    Assert.Throws(Code.InvalidArgument,
                  "Shape does not match the number of devices. Received: shape=(2, 4); devices.shape=(4,)",
                  () => new Mesh(new long[] {2, 4}, new[] {"a", "b"}, new[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"}));
  }

  [Test]
  public static void IndexPastTheEndIsOutOfRange() {
    using (var mesh = Mesh42()) {
      Assert.Throws(Code.OutOfRange, "Argument 'index' is 5", () => mesh.AxisName(5));
    }
  }

  [Test]
  public static void NegativeIndexIsRejectedBeforeTheCall() {
    using (var mesh = Mesh42()) {
      Assert.Throws(Code.InvalidArgument, "Argument 'index' must be >= 0, got -1", () => mesh.AxisName(-1));
    }
  }

  [Test]
  public static void ErrorAfterErrorEachArrivesOnItsOwnCall() {
    using (var mesh = Mesh42()) {
      Assert.Throws(Code.OutOfRange, "is 7", () => mesh.Dim(7));
      Assert.Throws(Code.NotFound, "nope", () => mesh.AxisSize("nope"));
      Assert.Equal(2L, mesh.AxisSize("model"), "a good call after two failures");
    }
  }

  [Test]
  public static void ErrorsOnManyThreadsStayOnTheirThread() {
    using (var mesh = Mesh42()) {
      var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
      var threads = Enumerable.Range(0, 4).Select(t => new System.Threading.Thread(() => {
        for (int i = 0; i < 2000; i++) {
          try {
            mesh.AxisName(2 + t);
            failures.Add("no exception");
          } catch (TesseraException e) {
            if (!e.Message.Contains("is " + (2 + t))) failures.Add(e.Message);
          }
          if (mesh.AxisName(1) != "model") failures.Add("good call failed");
        }
      })).ToList();
      threads.ForEach(th => th.Start());
      threads.ForEach(th => th.Join());
      Assert.Equal(0, failures.Count, "wrong or missing exceptions: " + string.Join("; ", failures.Take(3)));
    }
  }

  /* ---- arrays and strings ------------------------------------------------ */

  [Test]
  public static void NonAsciiAxisNamesRoundTrip() {
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"données", "模型🙂"}, Devs8)) {
      Assert.Equal("données", mesh.AxisName(0), "axis 0");
      Assert.Equal("模型🙂", mesh.AxisName(1), "axis 1");
      Assert.Equal(1L, mesh.AxisIndex("模型🙂"), "index by name");
      Assert.Equal("<DeviceMesh shape=(2, 4), axis_names=['données', '模型🙂']>", mesh.ToString(), "repr");
      using (var layout = new Layout(new[] {"模型🙂", null}, mesh)) {
        Assert.Equal("模型🙂", layout.Axis(0, 0), "layout axis");
      }
    }
  }

  [Test]
  public static void Int64ArraysRoundTrip() {
    using (var mesh = Mesh42()) {
      Assert.Equal(new long[] {3, 1}, mesh.DeviceCoordinates(7), "coordinates of device 7");
      Assert.Equal(7L, mesh.DeviceAt(new long[] {3, 1}), "device at (3, 1)");
      Assert.Equal(Enumerable.Range(0, 8).Select(i => (long)i).ToArray(), mesh.XlaDeviceOrder(), "device order");
    }
  }

  [Test]
  public static void NullStringEntriesAreReplicatedDimensions() {
    using (var mesh = Mesh42())
    using (var layout = new Layout(new[] {null, "model", ""}, mesh)) {
      Assert.Equal(3L, layout.NumDims, "number of dimensions");
      Assert.Equal(0L, layout.NumAxes(0), "dim 0 replicated");
      Assert.Equal(1L, layout.NumAxes(1), "dim 1 on model");
      Assert.Equal(0L, layout.NumAxes(2), "dim 2 replicated");
    }
  }

  [Test]
  public static void ProtoBytesRoundTrip() {
    using (var mesh = Mesh42())
    using (var layout = new Layout(new[] {"data", null}, mesh)) {
      byte[] bytes = layout.ToProto();
      Assert.True(bytes.Length > 0, "serialized bytes");
      using (var back = Layout.FromProto(bytes)) {
        Assert.True(back == layout, "layout from its bytes equals it");
      }
      Assert.Throws(Code.InvalidArgument, "", () => Layout.FromProto(new byte[] {0xff, 0xff, 0xff}));
    }
  }

  [Test]
  public static void GroupedLayoutTakesInt64GroupSizes() {
    using (var mesh = Mesh42())
    using (var layout = Layout.Grouped(new[] {"data", "model"}, new long[] {2, 0}, mesh)) {
      Assert.Equal(2L, layout.NumAxes(0), "dim 0 over two axes");
      Assert.Equal(8L, layout.ShardCount(0), "4 x 2 shards");
    }
  }

  /* ---- conformance vectors ---------------------------------------------- */

  // K31: exact key wins, regexes with re.search, several matches an error, none null.
  [Test]
  public static void K31LayoutMapGet() {
    using (var mesh = Mesh42())
    using (var map = new LayoutMap(mesh, KeyMatch.Search))
    using (var s2 = new Layout(new[] {null, "model"}, null))
    using (var s1 = new Layout(new[] {"model"}, null))
    using (var r2 = new Layout(new string[] {null, null}, null))
    using (var r1 = new Layout(new string[] {null}, null)) {
      map.Set("dense/kernel", s2);
      map.Set("dense/bias", s1);
      map.Set(".*dense.*kernel", r2);
      map.Set(".*dense.*bias", r1);
      map.Set(".*bias", s1);
      Assert.Equal(0L, map.Find("dense/kernel"), "exact key wins");
      Assert.Equal(1L, map.Find("dense/bias"), "exact key wins over two regexes");
      Assert.Equal(2L, map.Find("dense_2/kernel"), "regex");
      Assert.Throws(Code.FailedPrecondition, "Path 'dense_2/bias' matches multiple layout", () => map.Get("dense_2/bias"));
      Assert.Null(map.Get("conv2d/kernel"), "no rule matches");
      using (var bias = map.Get("conv2d/bias")) {
        Assert.Equal("model", bias.Axis(0, 0), "conv2d/bias takes .*bias");
        Assert.True(bias.Mesh().Equals(mesh), "given the map's mesh");
      }
    }
  }

  // K29: ModelParallel over (4, 2) data/model with 2 processes: 4 replicas, no error.
  [Test]
  public static void K29ModelParallelReplicas() {
    using (var mesh = Mesh42())
    using (var map = new LayoutMap(mesh, KeyMatch.Search))
    using (var options = new DistributionOptions()) {
      options.SetProcess(2, 0);
      using (var distribution = Distribution.ModelParallel(map, "data", options)) {
        Assert.Equal(DistributionKind.ModelParallel, distribution.Kind, "kind");
        Assert.Equal(4L, distribution.NumModelReplicas, "replicas");
        Assert.Equal(2L, distribution.NumProcesses, "processes");
      }
    }
  }

  // S3: mesh (2, 4) x/y, P('y', 'x'), shape (8, 16), strict.
  [Test]
  public static void S3ShardRanges() {
    long[][] expected = {
        new long[] {0, 2, 0, 8}, new long[] {2, 4, 0, 8}, new long[] {4, 6, 0, 8}, new long[] {6, 8, 0, 8},
        new long[] {0, 2, 8, 16}, new long[] {2, 4, 8, 16}, new long[] {4, 6, 8, 16}, new long[] {6, 8, 8, 16}};
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Devs8))
    using (var layout = new Layout(new[] {"y", "x"}, mesh))
    using (var sharding = new Sharding(layout, new long[] {8, 16}, ShardMode.Strict)) {
      Assert.Equal(8L, sharding.NumDevices, "devices");
      for (int d = 0; d < 8; d++) {
        Assert.Equal(expected[d], sharding.DeviceRanges(d), "device " + d);
        Assert.Equal(new long[] {2, 8}, sharding.ShardShape(d), "shard shape " + d);
        Assert.Equal(0L, sharding.ReplicaId(d), "replica id " + d);
      }
      Assert.Equal(new long[] {2, 8}, sharding.MaxShardShape(), "max shard shape");
      Assert.True(!sharding.IsFullyReplicated(), "not fully replicated");
    }
  }
  /* ---- the API's shape -------------------------------------------------- */

  [Test]
  public static void MeshesWithTheSameShapeNamesAndDevicesAreEqual() {
    using (var a = Mesh42())
    using (var b = Mesh42())
    using (var other = Mesh42("x", "y")) {
      Assert.True(a == b, "==");
      Assert.True(a.Equals((object)b), "Equals(object)");
      Assert.Equal(a.GetHashCode(), b.GetHashCode(), "hash codes of equal meshes");
      Assert.True(a != other, "!= with other axis names");
      Assert.True(a != null, "!= null");
    }
  }

  [Test]
  public static void LayoutsWithTheSameAxesAndMeshAreEqual() {
    using (var mesh = Mesh42())
    using (var a = new Layout(new[] {"data", null}, mesh))
    using (var b = new Layout(new[] {"data", null}, mesh))
    using (var other = new Layout(new[] {null, "data"}, mesh)) {
      Assert.True(a == b, "==");
      Assert.Equal(a.GetHashCode(), b.GetHashCode(), "hash codes of equal layouts");
      Assert.True(!a.Equals(other), "Equals with the axes swapped");
    }
  }

  [Test]
  public static void AccessorsAreProperties() {
    using (var mesh = Mesh42())
    using (var layout = new Layout(new[] {"data", null, "model"}, mesh)) {
      Assert.Equal(8L, mesh.NumDevices, "mesh.NumDevices");
      Assert.Equal(2L, mesh.NumAxes, "mesh.NumAxes");
      Assert.Equal(3L, layout.NumDims, "layout.NumDims");
    }
  }

  [Test]
  public static void EnumItemsAreTheCSuffixInPascalCase() {
    Assert.Equal("Strict", ShardMode.Strict.ToString(), "TESSERA_SHARD_MODE_STRICT");
    Assert.Equal("Strict", ShapeCheck.Strict.ToString(), "TESSERA_SHAPE_CHECK_STRICT");
    Assert.Equal("NeverConnected", ErrorReason.NeverConnected.ToString(), "TESSERA_REASON_NEVER_CONNECTED");
    Assert.Equal("NeverConnected", TaskState.NeverConnected.ToString(), "TESSERA_TASK_NEVER_CONNECTED");
  }

  [Test]
  public static void AssemblyVersionIsTheLibraryVersion() {
    Assert.Equal(Library.VersionString + ".0", typeof(Mesh).Assembly.GetName().Version.ToString(),
                 "AssemblyVersion");
  }
  /* ---- Shardy text (experimental; sharding_cases.md S7 and S21) ------------ */

  const string SdyMesh2x4 = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>";

  [Test]
  public static void LayoutPrintsAsAShardySharding() { // S7
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Devs8))
    using (var layout = Layout.FromPartitionSpec("P(('y', 'x'))", mesh, 2)) {
      Assert.Equal("#sdy.sharding<@mesh, [{\"y\", \"x\"}, {}]>", layout.ToShardyText(null), "sharding");
    }
  }

  [Test]
  public static void MeshPrintsAsAShardySymbolOfTheGivenName() {
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Devs8)) {
      Assert.Equal("sdy.mesh @m = <[\"x\"=2, \"y\"=4]>", mesh.ToShardyText("m"), "mesh symbol");
    }
  }

  [Test]
  public static void OpenDimParsesToTheUnconstrainedLayout() { // S21
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"x", "y"}, Devs8))
    using (var expected = Layout.FromPartitionSpec("P(UNCONSTRAINED, 'y')", mesh, 2))
    using (var parsed = Layout.FromShardyText("#sdy.sharding<@mesh, [{?}, {\"y\"}]>", SdyMesh2x4, Devs8)) {
      Assert.True(expected == parsed, "the layout of P(UNCONSTRAINED, 'y')");
    }
  }

  [Test]
  public static void ShardyMeshTextPlacesTheAssignmentByDeviceIds() {
    using (var expected = new Mesh(new long[] {4}, new[] {"x"}, new[] {"cpu:0", "cpu:2", "cpu:1", "cpu:3"}))
    using (var parsed = Mesh.FromShardyText("sdy.mesh @mesh = <[\"x\"=4], device_ids=[0, 2, 1, 3]>",
                                            Devs8.Take(4).ToArray())) {
      Assert.True(expected == parsed, "mesh in device_ids order");
    }
  }

  [Test]
  public static void ShardySubAxisIsRefusedWithPositionAndToken() {
    Assert.Throws(Code.InvalidArgument,
                  "Shardy sharding text: at position 26: ':' starts a sub-axis of \"y\": Tessera layouts have no sub-axes",
                  () => Layout.FromShardyText("#sdy.sharding<@mesh, [{\"y\":(2)2}]>", SdyMesh2x4, Devs8));
  }

  // K59: torch 2.15's DistributedSampler(range(10), num_replicas=4, rank=0, shuffle=True) after set_epoch(1)
  // and set_epoch(2); seed -1 with set_epoch(1) is torch's manual_seed(0).
  [Test]
  public static void K59ShuffledSamplesFollowTheEpoch() {
    Assert.Equal(new long[] {5, 0, 7}, Distribution.InterleaveSamplesShuffled(10, 4, 0, false, 0, 1), "epoch 1");
    Assert.Equal(new long[] {8, 6, 2}, Distribution.InterleaveSamplesShuffled(10, 4, 0, false, 0, 2), "epoch 2");
    Assert.Equal(new long[] {7, 9, 6, 1}, Distribution.InterleaveSamplesShuffled(10, 3, 2, false, -1, 1),
                 "seed -1");
  }
}

}
