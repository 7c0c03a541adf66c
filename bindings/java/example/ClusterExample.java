// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.tessera.Client;
import org.tessera.ClusterOptions;

/**
 * One process of a multi-process job: initialize (process 0 also runs the
 * coordinator), publish a value, read the other process's, meet at a barrier,
 * shut down together. Start one per process:
 *
 *   java ... ClusterExample 127.0.0.1:8476 2 0 &
 *   java ... ClusterExample 127.0.0.1:8476 2 1
 */
public final class ClusterExample {
  public static void main(String[] args) {
    String address = args[0];
    int numProcesses = Integer.parseInt(args[1]);
    int processIndex = Integer.parseInt(args[2]);

    try (ClusterOptions options = new ClusterOptions()) {
      options.setCoordinatorAddress(address);
      options.setNumProcesses(numProcesses);
      options.setProcessIndex(processIndex);
      options.setJobId("java-example");
      options.setInitTimeout(Duration.ofMillis(30_000));
      options.setShutdownTimeout(Duration.ofMillis(30_000));

      try (Client client = options.initialize()) {
        client.kvSet("hello/" + processIndex,
                     ("from " + processIndex).getBytes(StandardCharsets.UTF_8), false);
        int peer = (processIndex + 1) % numProcesses;
        byte[] value = client.kvGet("hello/" + peer, Duration.ofMillis(30_000));
        System.out.println("process " + processIndex + " read '"
                           + new String(value, StandardCharsets.UTF_8) + "'");
        client.barrier("example/done", Duration.ofMillis(30_000), null);
        client.shutdown();
        System.out.println("process " + processIndex + " shut down");
      }
    }
  }
}
