// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that exits while library threads keep logging to a Java handler
 * (LogHandlerTest runs it): a coordinator warns on its gRPC threads about
 * every call with a wrong job token, and a daemon thread keeps making such
 * calls through System.exit. Prints "delivered" once a warning has arrived.
 */
public final class LogAtExitMain {
  private LogAtExitMain() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    Tessera.setLogHandler((level, message) -> {
      if (message.startsWith("coordinator: rejected a call from ")) delivered.countDown();
    }, LogLevel.WARNING);
    ClusterOptions options = new ClusterOptions();
    options.setBindAddress("127.0.0.1:0");
    options.setNumProcesses(1);
    options.setJobId("java-log-exit");
    options.setJobToken("the right token");
    Coordinator coordinator = new Coordinator(options);
    options.setCoordinatorAddress("127.0.0.1:" + coordinator.port());
    options.setProcessIndex(0);
    options.setInitTimeout(Duration.ofMillis(5_000));
    options.setJobToken("a wrong token");
    Thread caller = new Thread(() -> {
      while (true) {
        try {
          options.connect().close();
        } catch (TesseraException expected) {
          // UNAUTHENTICATED, and one more warning on a library thread
        }
      }
    });
    caller.setDaemon(true);
    caller.start();
    if (!delivered.await(20, TimeUnit.SECONDS)) System.exit(2);
    System.out.println("delivered");
    System.exit(0);  // the coordinator still serves and warns; nothing is closed
  }
}
