// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A C# program using Tessera: a device mesh, a layout map, a model-parallel
// distribution and the shard ranges of one variable; with arguments
// `cluster <process id> <host:port>`, one of two processes that initialize,
// share a key, meet at a barrier and shut down.
//
//   mcs -r:Tessera.dll Example.cs && mono Example.exe
//   mono Example.exe cluster 0 127.0.0.1:8476 & mono Example.exe cluster 1 127.0.0.1:8476
using System;
using System.Linq;
using System.Text;
using Tessera;

public static class Example {
  public static int Main(string[] args) {
    try {
      if (args.Length == 3 && args[0] == "cluster") {
        RunClusterProcess(long.Parse(args[1]), args[2]);
      } else {
        PlanModelParallel();
      }
      return 0;
    } catch (TesseraException e) {
      Console.Error.WriteLine("tessera error " + e.Code + ": " + e.Message);
      return 1;
    }
  }

  static void PlanModelParallel() {
    string[] devices = Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray();
    using (var mesh = new Mesh(new long[] {2, 4}, new[] {"batch", "model"}, devices))
    using (var map = new LayoutMap(mesh, KeyMatch.Search))
    using (var kernel = new Layout(new[] {null, "model"}, null))
    using (var bias = new Layout(new[] {"model"}, null)) {
      map.Set("dense.*kernel", kernel);
      map.Set("dense.*bias", bias);
      Console.WriteLine(mesh);

      using (var distribution = Distribution.ModelParallel(map, "batch", null))
      using (var layout = distribution.VariableLayout("model/dense_1/kernel", new long[] {16, 32}, null))
      using (var sharding = new Sharding(layout, new long[] {16, 32}, ShardMode.Strict)) {
        Console.WriteLine(distribution);
        Console.WriteLine("dense_1/kernel: " + layout);
        for (long device = 0; device < sharding.NumDevices; device++) {
          long[] r = sharding.DeviceRanges(device);  // [start0, stop0, start1, stop1]
          Console.WriteLine("  device " + device + ": [" + r[0] + ":" + r[1] + ", " + r[2] + ":" + r[3] + "]");
        }
      }
    }
  }

  static void RunClusterProcess(long processIndex, string coordinatorAddress) {
    using (var options = new ClusterOptions()) {
      options.SetCoordinatorAddress(coordinatorAddress);
      options.SetNumProcesses(2);
      options.SetProcessIndex(processIndex);
      options.SetInitTimeout(TimeSpan.FromMilliseconds(60000));
      using (Client client = options.Initialize()) {
        client.KvSet("example/" + processIndex, Encoding.UTF8.GetBytes("hello from " + processIndex), false);
        byte[] other = client.KvGet("example/" + (1 - processIndex), TimeSpan.FromMilliseconds(30000));
        Console.WriteLine("process " + processIndex + " read: " + Encoding.UTF8.GetString(other));
        client.Barrier("example/done", TimeSpan.FromMilliseconds(30000), null);
        client.Shutdown();
      }
    }
  }
}
