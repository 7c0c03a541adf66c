// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.time.Duration;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

/** The cluster API: options, detection, a coordinator, clients, KV, barriers, events. */
class ClusterTest {
  private static final byte[] HELLO = "héllo".getBytes(StandardCharsets.UTF_8);

  @Test
  void detectionReadsAnExplicitEnvironment() {
    try (ClusterOptions options = new ClusterOptions();
         Detection detection = options.detectEnv(new String[] {
             "TESSERA_COORDINATOR_ADDRESS=10.0.0.1:1234", "TESSERA_NUM_PROCESSES=2",
             "TESSERA_PROCESS_ID=1"})) {
      assertEquals("tessera", detection.source());
      assertEquals("10.0.0.1:1234", detection.coordinatorAddress());
      assertEquals(2, detection.numProcesses());
      assertEquals(1, detection.processIndex());
    }
  }

  @Test
  void badOptionIsInvalidArgument() {
    try (ClusterOptions options = new ClusterOptions()) {
      TesseraException e = assertThrows(TesseraException.class, () -> options.setNumProcesses(0));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
    }
  }

  /** A coordinator for one process and a plain client of it. */
  private static final class OneProcessJob implements AutoCloseable {
    final ClusterOptions options = new ClusterOptions();
    final Coordinator coordinator;
    final Client client;

    OneProcessJob() {
      options.setBindAddress("127.0.0.1:0");
      options.setNumProcesses(1);
      options.setJobId("java-test");
      options.setInitTimeout(Duration.ofMillis(10_000));
      options.setHeartbeat(Duration.ofMillis(100), Duration.ofMillis(1_000));
      options.setShutdownTimeout(Duration.ofMillis(10_000));
      coordinator = new Coordinator(options);
      options.setCoordinatorAddress("127.0.0.1:" + coordinator.port());
      options.setProcessIndex(0);
      client = options.connect();
    }

    @Override
    public void close() {
      client.close();
      coordinator.close();
      options.close();
    }
  }

  @Test
  void keyValueStoreRoundTripsBytes() {
    try (OneProcessJob job = new OneProcessJob()) {
      Client client = job.client;
      assertEquals(0, client.processIndex());
      assertEquals(1, client.numProcesses());
      client.kvSet("dir/a", HELLO, false);
      client.kvSet("dir/b", new byte[] {0, -1, 7}, false);
      assertArrayEquals(HELLO, client.kvGet("dir/a", Duration.ofMillis(1_000)));
      assertArrayEquals(new byte[] {0, -1, 7}, client.kvTryGet("dir/b"));
      TesseraException exists = assertThrows(TesseraException.class,
                                             () -> client.kvSet("dir/a", HELLO, false));
      assertEquals(Code.ALREADY_EXISTS, exists.code());
      try (KvList list = client.kvList("dir")) {
        assertEquals(2, list.numEntries());
        assertEquals("dir/a", list.key(0));
        assertArrayEquals(HELLO, list.value(0));
      }
      assertEquals(5, client.kvIncrement("counter", 5));
      assertTrue(client.kvCompareAndSwap("cas", null, HELLO));
      assertFalse(client.kvCompareAndSwap("cas", null, HELLO));
      client.kvDelete("dir", true);
      TesseraException missing = assertThrows(TesseraException.class,
                                              () -> client.kvTryGet("dir/a"));
      assertEquals(Code.NOT_FOUND, missing.code());
      client.barrier("one", Duration.ofMillis(1_000), null);
      client.shutdown();
    }
  }

  @Test
  void waitingForAMissingKeyIsDeadlineExceeded() {
    try (OneProcessJob job = new OneProcessJob()) {
      TesseraException e = assertThrows(TesseraException.class,
                                        () -> job.client.kvGet("never", Duration.ofMillis(100)));
      assertEquals(Code.DEADLINE_EXCEEDED, e.code());
      job.client.shutdown();
    }
  }

  @Test
  void eventsReachAListenerOnALibraryThread() throws Exception {
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    Thread test = Thread.currentThread();
    try (OneProcessJob job = new OneProcessJob()) {
      job.client.setEventListener(event -> {
        if (event.kind() == EventKind.SHUTDOWN_STARTED) {
          seen.add(event.kind() + (Thread.currentThread() == test ? " on the test thread"
                                                                  : " on a library thread"));
        }
      });
      job.client.shutdown();
      assertEquals("SHUTDOWN_STARTED on a library thread", seen.poll(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void queuedEventsComeFromNextEvent() {
    try (OneProcessJob job = new OneProcessJob()) {
      job.client.shutdown();
      boolean shutdownSeen = false;
      for (int i = 0; i < 16 && !shutdownSeen; ++i) {
        try (Event event = job.client.nextEvent(Duration.ofMillis(5_000))) {
          assertNotNull(event);
          shutdownSeen = event.kind() == EventKind.SHUTDOWN_STARTED;
        }
      }
      assertTrue(shutdownSeen);
    }
  }

  private static Client connect(int port, int processIndex) {
    try (ClusterOptions options = new ClusterOptions()) {
      options.setCoordinatorAddress("127.0.0.1:" + port);
      options.setNumProcesses(2);
      options.setProcessIndex(processIndex);
      options.setJobId("java-barrier");
      options.setInitTimeout(Duration.ofMillis(20_000));
      options.setHeartbeat(Duration.ofMillis(100), Duration.ofMillis(1_000));
      options.setShutdownTimeout(Duration.ofMillis(20_000));
      return options.connect();
    }
  }

  /** A coordinator for two processes and a client for each, connected at once. */
  private static final class TwoProcessJob implements AutoCloseable {
    final ClusterOptions options = new ClusterOptions();
    final Coordinator coordinator;
    final Client first;
    final Client other;

    TwoProcessJob() throws Exception {
      options.setBindAddress("127.0.0.1:0");
      options.setNumProcesses(2);
      options.setJobId("java-barrier");
      coordinator = new Coordinator(options);
      int port = coordinator.port();
      // connect() returns once every process has registered.
      CompletableFuture<Client> second = CompletableFuture.supplyAsync(() -> connect(port, 1));
      first = connect(port, 0);
      other = second.get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
      CompletableFuture<Void> otherShutdown = CompletableFuture.runAsync(other::shutdown);
      first.shutdown();
      try {
        otherShutdown.get(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      other.close();
      first.close();
      coordinator.close();
      options.close();
    }
  }

  /** A cluster error carries its reason and who arrived and who was missing. */
  @Test
  void barrierMissingAProcessSaysWhichAndWhy() throws Exception {
    try (TwoProcessJob job = new TwoProcessJob()) {
      TesseraException e = assertThrows(TesseraException.class,
                                        () -> job.first.barrier("alone", Duration.ofMillis(200), null));
      assertEquals(Code.DEADLINE_EXCEEDED, e.code());
      assertEquals(ErrorReason.BARRIER_FAILED, e.reason());
      assertArrayEquals(new long[] {1}, e.missingProcesses());
      assertEquals(List.of(new MissingProcess(1, TaskState.RUNNING, "")), e.missing());
      assertEquals(List.of(0L), e.arrivedProcesses());
      assertThrows(UnsupportedOperationException.class, () -> e.arrivedProcesses().clear());
    }
  }

  /** A missing process that waits at another barrier says which ("id#counter"). */
  @Test
  void barrierFailureNamesTheBarrierAMissingProcessWaitsAt() throws Exception {
    try (TwoProcessJob job = new TwoProcessJob()) {
      CompletableFuture<Void> elsewhere =
          CompletableFuture.runAsync(() -> job.other.barrier("elsewhere", Duration.ofMillis(30_000), null));
      // Until the other process's call reaches the coordinator it waits nowhere;
      // each try is a new instance of "alone". The bound is a deadline, not a
      // count of tries: a slow machine may need many 200 ms tries.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      TesseraException last;
      do {
        last = assertThrows(TesseraException.class, () -> job.first.barrier("alone", Duration.ofMillis(200), null));
        assertEquals(Code.DEADLINE_EXCEEDED, last.code(), last.getMessage());
        assertFalse(elsewhere.isDone(), "the other process's barrier ended early");
      } while (last.missing().get(0).waitingAt().isEmpty() && System.nanoTime() < deadline);
      assertEquals(List.of(new MissingProcess(1, TaskState.RUNNING, "elsewhere#0")),
                   last.missing(), last.getMessage());
      job.first.barrier("elsewhere", Duration.ofMillis(30_000), null);  // releases the other process
      elsewhere.get(30, TimeUnit.SECONDS);
    }
  }

  /** Two JVMs run ClusterExample: initialize, KV, barrier, shutdown. */
  @Test
  void twoProcessesInitializeExchangeMeetAndShutDown() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<Process> processes = new ArrayList<>();
    List<File> outputs = new ArrayList<>();
    List<File> errors = new ArrayList<>();
    try {
      for (int id = 0; id < 2; ++id) {
        File output = File.createTempFile("tessera-cluster-" + id, ".out");
        File error = File.createTempFile("tessera-cluster-" + id, ".err");
        output.deleteOnExit();
        error.deleteOnExit();
        outputs.add(output);
        errors.add(error);
        processes.add(new ProcessBuilder(
                System.getProperty("tessera.java"), "-cp",
                System.getProperty("tessera.test.classpath"),
                "-Dtessera.jni.library=" + System.getProperty("tessera.jni.library"),
                "ClusterExample", "127.0.0.1:" + port, "2", Integer.toString(id))
            .redirectOutput(output).redirectError(error).start());
      }
      for (int id = 0; id < 2; ++id) {
        Process p = processes.get(id);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "process " + id + " still running");
        String out = Files.readString(outputs.get(id).toPath());
        assertEquals(0, p.exitValue(), out + Files.readString(errors.get(id).toPath()));
        int peer = 1 - id;
        assertEquals("process " + id + " read 'from " + peer + "'\nprocess " + id
                     + " shut down\n", out);
      }
    } finally {
      for (Process p : processes) {
        if (p.isAlive()) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void fingerprintIsStable() throws IOException {
    try (OneProcessJob job = new OneProcessJob()) {
      assertEquals(job.client.topologyFingerprint(), job.client.topologyFingerprint());
      assertNotEquals("", job.client.coordinatorAddress());
      try (DeviceList devices = job.client.devices()) {
        assertTrue(devices.numDevices() >= 1);
      }
      job.client.shutdown();
    }
  }
}
