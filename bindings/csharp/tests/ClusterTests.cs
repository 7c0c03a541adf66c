// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The cluster API through the binding: two processes that initialize, share
// keys, meet at a barrier and shut down; and events pushed to a C# delegate on
// a library thread.
using System;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Tessera.Tests {

public static class ClusterTests {
  const int StepTimeoutMs = 20000;

  [DllImport("libdl.so.2")] static extern IntPtr dlopen(string file, int mode);
  [DllImport("libdl.so.2")] static extern IntPtr dlsym(IntPtr handle, string name);

  /* Calling a cluster function the loaded libtessera lacks would end the
     process (lazy binding), so its absence is a test failure instead. */
  static void RequireClusterAbi() {
    using (new DistributionOptions()) {}  // loads libtessera_csharp.so, hence libtessera.so.0
    IntPtr library = dlopen("libtessera.so.0", 1 | 4 /* RTLD_LAZY | RTLD_NOLOAD: the copy in use */);
    foreach (string name in new[] {"tessera_cluster_options_create", "tessera_detection_create", "tessera_runtime_initialize", "tessera_client_kv_set", "tessera_client_barrier",
                                   "tessera_client_shutdown", "tessera_coordinator_start",
                                   "tessera_client_event_wait", "tessera_client_connect"}) {
      if (library == IntPtr.Zero || dlsym(library, name) == IntPtr.Zero) {
        throw new AssertionException("libtessera.so.0 does not export " + name + " (cluster C ABI not implemented)");
      }
    }
  }

  static int FreePort() {
    var listener = new TcpListener(IPAddress.Loopback, 0);
    listener.Start();
    int port = ((IPEndPoint)listener.LocalEndpoint).Port;
    listener.Stop();
    return port;
  }

  static ClusterOptions Options(string address, long processIndex) {
    var options = new ClusterOptions();
    options.SetDetection("none");
    options.SetCoordinatorAddress(address);
    options.SetNumProcesses(2);
    options.SetProcessIndex(processIndex);
    options.SetJobId("csharp-binding-test");
    options.SetInitTimeout(TimeSpan.FromMilliseconds(StepTimeoutMs));
    options.SetHeartbeat(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(2000));
    options.SetShutdownTimeout(TimeSpan.FromMilliseconds(StepTimeoutMs));
    options.SetRpcTimeout(TimeSpan.FromMilliseconds(5000));
    return options;
  }

  [Test]
  public static void ClusterHandlesAreCreatedAndDisposed() {
    RequireClusterAbi();
    var options = new ClusterOptions();
    options.SetDetection("none");
    options.SetBindAddress("127.0.0.1:0");
    options.SetNumProcesses(1);
    options.SetJobId("csharp-handles");
    var detection = options.Detect();
    Assert.Equal("options", detection.Source, "detection source");
    var coordinator = new Coordinator(options);
    options.SetCoordinatorAddress("127.0.0.1:" + coordinator.Port);
    options.SetProcessIndex(0);
    var client = options.Connect();
    client.KvSet("csharp/a/1", new byte[] {1, 2, 3}, false);
    var list = client.KvList("csharp/a");
    Assert.Equal(1L, list.NumEntries, "listed entries");
    Assert.Equal(new byte[] {1, 2, 3}, list.Value(0), "listed value");
    client.ReportError(Code.Internal, "ending the job to get an event");
    var evt = client.NextEvent(TimeSpan.FromMilliseconds(StepTimeoutMs));
    Assert.True(evt != null, "an event");
    BindingTests.DisposeTwice(list, evt, client, coordinator, detection, options);
  }

  /* ---- two processes ------------------------------------------------------ */

  /* `TesseraTests.exe child <process id> <port>`: one process of the job. */
  public static int ChildMain(string[] args) {
    long id = long.Parse(args[0]);
    string address = "127.0.0.1:" + args[1];
    try {
      using (var options = Options(address, id))
      using (var client = options.Initialize()) {
        Assert.Equal(id, client.ProcessIndex, "process id");
        Assert.Equal(2L, client.NumProcesses, "processes");
        Assert.True(Client.IsInitialized(), "initialized");
        client.KvSet("csharp/from/" + id, Encoding.UTF8.GetBytes("héllo from " + id), false);
        byte[] other = client.KvGet("csharp/from/" + (1 - id), TimeSpan.FromMilliseconds(StepTimeoutMs));
        Assert.Equal("héllo from " + (1 - id), Encoding.UTF8.GetString(other), "the other's value");
        client.Barrier("csharp/after-kv", TimeSpan.FromMilliseconds(StepTimeoutMs), null);
        Assert.Throws(Code.AlreadyExists, "", () => client.KvSet("csharp/from/" + id, new byte[] {1}, false));
        client.Barrier("csharp/before-shutdown", TimeSpan.FromMilliseconds(StepTimeoutMs), new long[] {0, 1});
        client.Shutdown();
      }
      Console.WriteLine("child " + id + ": ok");
      return 0;
    } catch (Exception e) {
      Console.WriteLine("child " + id + ": " + e);
      return 1;
    }
  }

  [Test]
  public static void TwoProcessesInitializeShareKeysMeetAndShutDown() {
    RequireClusterAbi();
    string mono = Process.GetCurrentProcess().MainModule.FileName;
    string exe = typeof(ClusterTests).Assembly.Location;
    string port = FreePort().ToString();
    var children = new Process[2];
    var outputs = new Task<string>[2];
    try {
      for (int id = 0; id < 2; id++) {
        var info = new ProcessStartInfo(mono, "\"" + exe + "\" child " + id + " " + port) {
          UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
        };
        children[id] = Process.Start(info);
        Process child = children[id];
        Task<string> stderr = child.StandardError.ReadToEndAsync();
        outputs[id] = child.StandardOutput.ReadToEndAsync().ContinueWith(t => t.Result + stderr.Result);
      }
      for (int id = 0; id < 2; id++) {
        bool exited = children[id].WaitForExit(60000);
        Assert.True(exited, "child " + id + " finished within 60 s");
      }
      for (int id = 0; id < 2; id++) {
        Assert.Equal(0, children[id].ExitCode, "child " + id + " exit code; output: " + outputs[id].Result.Trim());
      }
    } finally {
      foreach (Process child in children) {
        if (child != null && !child.HasExited) child.Kill();
        child?.WaitForExit();
      }
    }
  }

  // A two-process job on a coordinator of its own: both clients connected
  // (they register concurrently), then closed with the coordinator.
  static void WithTwoProcessJob(Action<Client, Client> body) {
    RequireClusterAbi();
    using (var serverOptions = new ClusterOptions()) {
      serverOptions.SetDetection("none");
      serverOptions.SetBindAddress("127.0.0.1:0");
      serverOptions.SetNumProcesses(2);
      serverOptions.SetJobId("csharp-binding-test");
      serverOptions.SetHeartbeat(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(2000));
      using (var coordinator = new Coordinator(serverOptions)) {
        string address = "127.0.0.1:" + coordinator.Port;
        using (var options0 = Options(address, 0))
        using (var options1 = Options(address, 1)) {
          Task<Client> second = Task.Run(() => options1.Connect());
          using (Client client0 = options0.Connect())
          using (Client client1 = second.Result) {
            body(client0, client1);
          }
        }
      }
    }
  }

  /* ---- barrier failure details -------------------------------------------- */

  [Test]
  public static void BarrierTimeoutListsMissingAndArrivedProcesses() {
    WithTwoProcessJob((client0, client1) => {
      // Process 1 waits elsewhere while process 0's barrier times out.
      Task elsewhere = Task.Run(() => client1.Barrier("elsewhere", TimeSpan.FromMilliseconds(StepTimeoutMs), null));
      var failure = Assert.Throws(Code.DeadlineExceeded, "here", () => client0.Barrier("here", TimeSpan.FromMilliseconds(1000), null));
      client1.CancelAll();
      Assert.Throws(Code.Cancelled, "", () => elsewhere.GetAwaiter().GetResult());
      Assert.Equal(ErrorReason.BarrierFailed, failure.Reason, "reason");
      Assert.Equal(new long[] {0}, failure.ArrivedProcesses.ToArray(), "arrived");
      Assert.Equal(1, failure.MissingProcesses.Count, "missing count");
      MissingProcess missing = failure.MissingProcesses[0];
      Assert.Equal(1L, missing.ProcessIndex, "missing process");
      Assert.Equal(TaskState.Running, missing.State, "missing state");
      Assert.Equal("elsewhere#0", missing.WaitingAt, "where it waits");
    });
  }

  [Test]
  public static void ErrorWithoutProcessesHasEmptyLists() {
    var e = Assert.Throws(Code.InvalidArgument, "", () => new Mesh(new long[] {2}, new[] {"a"}, new[] {"cpu:0"}));
    Assert.Equal(0, e.MissingProcesses.Count, "missing");
    Assert.Equal(0, e.ArrivedProcesses.Count, "arrived");
  }

  /* ---- events on a library thread ----------------------------------------- */

  [Test]
  public static void EventCallbackRunsOnALibraryThread() {
    WithTwoProcessJob((client0, client1) => {
      var received = new ManualResetEventSlim(false);
      ClusterEvent seen = null;
      int callbackThread = -1;
      client0.SetEventCallback(e => {
        if (e.Kind != EventKind.JobError) return;
        seen = e;
        callbackThread = Thread.CurrentThread.ManagedThreadId;
        received.Set();
      });
      GC.Collect();  // the delegate must survive a collection
      GC.WaitForPendingFinalizers();
      client1.ReportError(Code.Internal, "boom from process 1");
      Assert.True(received.Wait(StepTimeoutMs), "JOB_ERROR event delivered within 20 s");
      Assert.Equal(1L, seen.ProcessIndex, "the failed process");
      Assert.True(callbackThread != Thread.CurrentThread.ManagedThreadId, "callback on another thread");
      // Fate sharing: the next call fails with the job's reason and source.
      var failure = Assert.Throws(Code.Aborted, "boom from process 1", () => client0.KvSet("after", new byte[] {1}, false));
      Assert.Equal(ErrorReason.JobFailed, failure.Reason, "reason");
      Assert.Equal(1L, failure.SourceProcess, "source process");
    });
  }
}

}
