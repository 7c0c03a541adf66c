// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.time.Duration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tessera.setLogHandler: the library's warnings reach Java, from any thread. */
class LogHandlerTest {
  /** What Keras's DataParallel warns about a mesh that is not 1-D (logged on the caller's thread). */
  private static final String NOT_1D_WARNING =
      "Expect the input mesh to be 1D, but received mesh.devices.ndim=2. The first axis will be "
      + "used for data-parallel sharding.";

  /**
   * `handler` for NOT_1D_WARNING only: other tests' library threads (a
   * coordinator going away) may log at any time.
   */
  private static LogHandler only1dWarning(LogHandler handler) {
    return (level, message) -> {
      if (message.equals(NOT_1D_WARNING)) handler.onLog(level, message);
    };
  }

  @AfterEach
  void restoreDefault() {
    Tessera.setLogHandler(null, LogLevel.WARNING);
  }

  /** Logs NOT_1D_WARNING once. */
  private static void warnAboutA2dMesh() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         Distribution distribution = Distribution.dataParallel(mesh, null)) {
      assertNotNull(distribution);
    }
  }

  @Test
  void aWarningOnTheCallingThreadReachesTheHandler() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Tessera.setLogHandler(only1dWarning((level, message) -> seen.add(level + " " + message)),
                          LogLevel.WARNING);
    warnAboutA2dMesh();
    assertEquals(List.of("WARNING " + NOT_1D_WARNING), seen);
  }

  @Test
  void messagesBelowTheMinimumLevelAreNotDelivered() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Tessera.setLogHandler(only1dWarning((level, message) -> seen.add(message)), LogLevel.ERROR);
    warnAboutA2dMesh();
    assertEquals(List.of(), seen);
  }

  @Test
  void aRemovedHandlerReceivesNothing() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Tessera.setLogHandler(only1dWarning((level, message) -> seen.add(message)), LogLevel.WARNING);
    warnAboutA2dMesh();
    Tessera.setLogHandler(null, LogLevel.WARNING);
    warnAboutA2dMesh();
    assertEquals(List.of(NOT_1D_WARNING), seen);
  }

  /** A coordinator rejects a wrong job token on one of its gRPC threads, and warns there. */
  @Test
  void aWarningOnALibraryThreadReachesTheHandler() throws Exception {
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    Thread test = Thread.currentThread();
    Tessera.setLogHandler((level, message) -> {
      if (message.startsWith("coordinator: rejected a call from ")) {
        seen.add(level + (Thread.currentThread() == test ? " on the test thread"
                                                         : " on a library thread"));
      }
    }, LogLevel.WARNING);
    try (ClusterOptions options = new ClusterOptions()) {
      options.setBindAddress("127.0.0.1:0");
      options.setNumProcesses(1);
      options.setJobId("java-log");
      options.setJobToken("the right token");
      try (Coordinator coordinator = new Coordinator(options)) {
        options.setCoordinatorAddress("127.0.0.1:" + coordinator.port());
        options.setProcessIndex(0);
        options.setInitTimeout(Duration.ofMillis(5_000));
        options.setJobToken("a wrong token");
        TesseraException e = assertThrows(TesseraException.class, options::connect);
        assertEquals(Code.UNAUTHENTICATED, e.code());
        assertEquals("WARNING on a library thread", seen.poll(10, TimeUnit.SECONDS));
      }
    }
  }

  /** The shutdown hook stops library threads from entering the JVM as it goes away. */
  @Test
  void theJvmExitsWhileLibraryThreadsLogToTheHandler() throws Exception {
    File output = File.createTempFile("tessera-log-exit", ".out");
    File errors = File.createTempFile("tessera-log-exit", ".err");
    output.deleteOnExit();
    errors.deleteOnExit();
    Process process = new ProcessBuilder(
            System.getProperty("tessera.java"), "-cp", System.getProperty("tessera.test.classpath"),
            "-Dtessera.jni.library=" + System.getProperty("tessera.jni.library"),
            "org.tessera.LogAtExitMain")
        .redirectOutput(output).redirectError(errors).start();
    try {
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running after 60 s");
      assertEquals(0, process.exitValue(), Files.readString(errors.toPath()));
      assertEquals("delivered\n", Files.readString(output.toPath()));
    } finally {
      if (process.isAlive()) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anExceptionFromTheHandlerStaysInJava() {
    List<String> seen = new CopyOnWriteArrayList<>();
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Tessera.setLogHandler(only1dWarning((level, message) -> {
      seen.add(message);
      throw new IllegalStateException("handler failed");
    }), LogLevel.WARNING);
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      warnAboutA2dMesh();  // the library call itself succeeds
      warnAboutA2dMesh();  // and the handler stays installed
    } finally {
      System.setErr(stderr);
    }
    assertEquals(List.of(NOT_1D_WARNING, NOT_1D_WARNING), seen);
    assertEquals("tessera: log handler threw java.lang.IllegalStateException: handler failed\n"
                 .repeat(2), captured.toString(StandardCharsets.UTF_8));
  }

  @Test
  void setLogHandlerFromInsideAHandlerIsRefused() {
    List<TesseraException> refused = new CopyOnWriteArrayList<>();
    Tessera.setLogHandler(only1dWarning((level, message) -> {
      refused.add(assertThrows(TesseraException.class,
                               () -> Tessera.setLogHandler(null, LogLevel.WARNING)));
    }), LogLevel.WARNING);
    warnAboutA2dMesh();
    assertEquals(1, refused.size());
    assertEquals(Code.FAILED_PRECONDITION, refused.get(0).code());
  }

  @Test
  void aNullMinimumLevelIsInvalidArgument() {
    TesseraException e = assertThrows(TesseraException.class,
                                      () -> Tessera.setLogHandler((l, m) -> { }, null));
    assertEquals("Argument 'minLevel' must be a LogLevel, got null", e.getMessage());
  }
}
