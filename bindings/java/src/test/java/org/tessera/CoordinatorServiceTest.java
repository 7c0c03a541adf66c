// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The coordinator as an operated service (experimental, issue 14): /metrics and the job's status. */
class CoordinatorServiceTest {
  /** Options for a coordinator of `processes` processes on a free loopback port, without a job token. */
  private static ClusterOptions options(int processes) {
    ClusterOptions options = new ClusterOptions();
    options.setDetection("none");
    options.setBindAddress("127.0.0.1:0");
    options.setNumProcesses(processes);
    options.setProcessIndex(0);
    options.setJobId("java-service-test");
    options.setInitTimeout(Duration.ofSeconds(20));
    options.setHeartbeat(Duration.ofMillis(100), Duration.ofSeconds(5));
    options.setShutdownTimeout(Duration.ofSeconds(20));
    return options;
  }

  /** Options of `processes` processes, and the coordinator they describe, which they point at. */
  private static final class Service implements AutoCloseable {
    final ClusterOptions options;
    final Coordinator coordinator;

    Service(ClusterOptions options) {
      this.options = options;
      coordinator = new Coordinator(options);
      options.setCoordinatorAddress("127.0.0.1:" + coordinator.port());
    }

    Service(int processes) {
      this(options(processes));
    }

    @Override
    public void close() {
      coordinator.close();
      options.close();
    }
  }

  @Test
  void metricsBindServesOpenMetricsOnTheChosenPort() throws IOException {
    ClusterOptions withMetrics = options(2);
    withMetrics.setMetricsBind("127.0.0.1:0");
    try (Service service = new Service(withMetrics)) {
      Coordinator coordinator = service.coordinator;
      int port = coordinator.metricsPort();
      assertTrue(port > 0);
      assertNotEquals(coordinator.port(), port);
      HttpURLConnection connection =
          (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics").openConnection();
      connection.setRequestProperty("Accept", "application/openmetrics-text; version=1.0.0");
      assertEquals(200, connection.getResponseCode());
      String body;
      try (InputStream in = connection.getInputStream()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertTrue(body.contains("\ntessera_coordinator_processes_expected 2\n"), body);
      assertTrue(body.endsWith("\n# EOF\n"), body);
    }
  }

  @Test
  void metricsPortWithoutMetricsBindIsFailedPrecondition() {
    try (Service service = new Service(2)) {
      TesseraException e = assertThrows(TesseraException.class, service.coordinator::metricsPort);
      assertEquals(Code.FAILED_PRECONDITION, e.code());
      assertEquals("the coordinator serves no metrics: its options set no metrics address "
                   + "(tessera_cluster_options_set_metrics_bind)", e.getMessage());
    }
  }

  @Test
  void metricsBindWithoutPortIsInvalidArgument() {
    try (ClusterOptions options = new ClusterOptions()) {
      TesseraException e = assertThrows(TesseraException.class, () -> options.setMetricsBind("127.0.0.1"));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'address' must be HOST:PORT (port 0: any free port), got '127.0.0.1'",
                   e.getMessage());
    }
  }

  /** Before any process registers: every process never connected, no heartbeat. */
  @Test
  void jobStatusOfAJobNobodyJoinedYet() {
    try (Service service = new Service(2);
         JobStatus status = service.options.queryJobStatus(Duration.ofSeconds(10))) {
      assertEquals("REGISTERING", status.jobState());
      assertEquals(2, status.numProcesses());
      for (long i = 0; i < 2; ++i) {
        assertEquals("never connected", status.processState(i));
        assertEquals(-1, status.processMsSinceHeartbeat(i));
        assertEquals("", status.processWaitingOn(i));
      }
    }
  }

  /** The operator's question: process 0 is stuck waiting for key "ready". */
  @Test
  void jobStatusShowsTheKeyAProcessWaitsOn() throws Exception {
    try (Service service = new Service(1); Client client = service.options.connect()) {
      CompletableFuture<byte[]> value =
          CompletableFuture.supplyAsync(() -> client.kvGet("ready", Duration.ofSeconds(20)));
      String waitingOn = "";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (waitingOn.isEmpty() && System.nanoTime() < deadline) {
        try (JobStatus status = service.options.queryJobStatus(Duration.ofSeconds(10))) {
          assertEquals("RUNNING", status.jobState());
          assertEquals(1, status.numProcesses());
          assertEquals("running", status.processState(0));
          long ms = status.processMsSinceHeartbeat(0);
          assertTrue(ms >= 0 && ms < 5_000, "ms since heartbeat " + ms);
          waitingOn = status.processWaitingOn(0);
        }
        Thread.sleep(20);
      }
      assertEquals("key ready", waitingOn);
      client.kvSet("ready", new byte[] {1}, false);
      assertEquals(1, value.get(20, TimeUnit.SECONDS).length);
      client.shutdown();
    }
  }

  @Test
  void jobStatusIndexPastTheProcessesIsOutOfRange() {
    try (Service service = new Service(2);
         JobStatus status = service.options.queryJobStatus(Duration.ofSeconds(10))) {
      TesseraException e = assertThrows(TesseraException.class, () -> status.processState(2));
      assertEquals(Code.OUT_OF_RANGE, e.code());
    }
  }
}
