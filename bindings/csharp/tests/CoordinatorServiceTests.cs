// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator as an operated service (experimental, issue 14) through
// the binding: /metrics on the chosen port, and the job's status as an
// operator queries it.
using System;
using System.IO;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Tessera.Tests {

public static class CoordinatorServiceTests {
  /* Options for a coordinator of `processes` processes on a free loopback port, without a job token. */
  static ClusterOptions Options(long processes) {
    var options = new ClusterOptions();
    options.SetDetection("none");
    options.SetBindAddress("127.0.0.1:0");
    options.SetNumProcesses(processes);
    options.SetProcessIndex(0);
    options.SetJobId("csharp-service-test");
    options.SetInitTimeout(TimeSpan.FromSeconds(20));
    options.SetHeartbeat(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(5));
    options.SetShutdownTimeout(TimeSpan.FromSeconds(20));
    return options;
  }

  /* Starts the coordinator `options` describe and points them at it. */
  static Coordinator Start(ClusterOptions options) {
    var coordinator = new Coordinator(options);
    options.SetCoordinatorAddress("127.0.0.1:" + coordinator.Port);
    return coordinator;
  }

  [Test]
  public static void MetricsBindServesOpenMetricsOnTheChosenPort() {
    using (var options = Options(2)) {
      options.SetMetricsBind("127.0.0.1:0");
      using (var coordinator = Start(options)) {
        int port = coordinator.MetricsPort();
        Assert.True(port > 0 && port != coordinator.Port, "metrics port " + port + " beside " + coordinator.Port);
        var request = (HttpWebRequest)WebRequest.Create("http://127.0.0.1:" + port + "/metrics");
        request.Accept = "application/openmetrics-text; version=1.0.0";
        using (var response = (HttpWebResponse)request.GetResponse())
        using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8)) {
          string body = reader.ReadToEnd();
          Assert.Equal(HttpStatusCode.OK, response.StatusCode, "status");
          Assert.Contains("\ntessera_coordinator_processes_expected 2\n", body);
          Assert.True(body.EndsWith("\n# EOF\n", StringComparison.Ordinal), "ends with # EOF: " + body);
        }
      }
    }
  }

  [Test]
  public static void MetricsPortWithoutMetricsBindIsFailedPrecondition() {
    using (var options = Options(2))
    using (var coordinator = Start(options)) {
      var e = Assert.Throws(Code.FailedPrecondition, "", () => coordinator.MetricsPort());
      Assert.Equal("the coordinator serves no metrics: its options set no metrics address "
                   + "(tessera_cluster_options_set_metrics_bind)", e.Message, "message");
    }
  }

  [Test]
  public static void MetricsBindWithoutPortIsInvalidArgument() {
    using (var options = new ClusterOptions()) {
      var e = Assert.Throws(Code.InvalidArgument, "", () => options.SetMetricsBind("127.0.0.1"));
      Assert.Equal("Argument 'address' must be HOST:PORT (port 0: any free port), got '127.0.0.1'", e.Message,
                   "message");
    }
  }

  /* Before any process registers: every process never connected, no heartbeat. */
  [Test]
  public static void JobStatusOfAJobNobodyJoinedYet() {
    using (var options = Options(2))
    using (var coordinator = Start(options))
    using (var status = options.QueryJobStatus(TimeSpan.FromSeconds(10))) {
      Assert.Equal("REGISTERING", status.JobState(), "job state");
      Assert.Equal(2L, status.NumProcesses(), "processes");
      for (long i = 0; i < 2; ++i) {
        Assert.Equal("never connected", status.ProcessState(i), "state of " + i);
        Assert.Equal(-1L, status.ProcessMsSinceHeartbeat(i), "ms since heartbeat of " + i);
        Assert.Equal("", status.ProcessWaitingOn(i), "waiting on of " + i);
      }
    }
  }

  [Test]
  public static void JobStatusIndexPastTheProcessesIsOutOfRange() {
    using (var options = Options(2))
    using (var coordinator = Start(options))
    using (var status = options.QueryJobStatus(TimeSpan.FromSeconds(10))) {
      Assert.Throws(Code.OutOfRange, "", () => status.ProcessState(2));
    }
  }

  /* The operator's question: process 0 is stuck waiting for key "ready". */
  [Test]
  public static void JobStatusShowsTheKeyAProcessWaitsOn() {
    using (var options = Options(1))
    using (var coordinator = Start(options))
    using (var client = options.Connect()) {
      var value = Task.Run(() => client.KvGet("ready", TimeSpan.FromSeconds(20)));
      string waitingOn = "";
      var deadline = DateTime.UtcNow.AddSeconds(10);
      while (waitingOn == "" && DateTime.UtcNow < deadline) {
        using (var status = options.QueryJobStatus(TimeSpan.FromSeconds(10))) {
          Assert.Equal("RUNNING", status.JobState(), "job state");
          Assert.Equal(1L, status.NumProcesses(), "processes");
          Assert.Equal("running", status.ProcessState(0), "state");
          long ms = status.ProcessMsSinceHeartbeat(0);
          Assert.True(ms >= 0 && ms < 5000, "ms since heartbeat " + ms);
          waitingOn = status.ProcessWaitingOn(0);
        }
        Thread.Sleep(20);
      }
      Assert.Equal("key ready", waitingOn, "waiting on");
      client.KvSet("ready", new byte[] {1}, false);
      Assert.Equal(new byte[] {1}, value.Result, "the key's value");
      client.Shutdown();
    }
  }
}

}
