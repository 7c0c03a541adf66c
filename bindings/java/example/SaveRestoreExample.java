// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.tessera.CheckpointIndex;
import org.tessera.CheckpointSaver;
import org.tessera.KeyMatch;
import org.tessera.Layout;
import org.tessera.LayoutMap;
import org.tessera.Mesh;
import org.tessera.ReadPiece;
import org.tessera.ReadPlan;
import org.tessera.SaveOptions;
import org.tessera.ShardMode;
import org.tessera.Sharding;

/**
 * Saves a sharded checkpoint on one mesh and restores it on another
 * (experimental). w, F32 [4, 6] with w[r][c] = 6r + c, is saved by a job of
 * 2 processes on a 2x2 mesh, cut in 2x3 blocks (rows by x, columns by y):
 * each process hands its two devices' shards, process 0 writes the index.
 * A job of 1 process on a 3-device mesh then restores it cut by columns
 * into three [4, 2] shards, reading each stored piece's overlap.
 */
public final class SaveRestoreExample {
  static final long[] SHAPE = {4, 6};

  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("tessera-save-example");
    try {
      save(dir.toString());
      restore(dir.toString());
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
      }
    }
  }

  static void save(String dir) {
    float[] w = new float[24];
    for (int i = 0; i < w.length; ++i) w[i] = i;
    try (Mesh mesh = new Mesh(new long[] {2, 2}, new String[] {"x", "y"},
                              new String[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"});
         Layout blocks = new Layout(new String[] {"x", "y"}, mesh);
         Sharding sharding = new Sharding(blocks, SHAPE, ShardMode.STRICT)) {
      // Each device's block of w, as the processes of a training job hold them.
      float[][] shards = sharding.scatter(w, null);
      // A real job's processes run apart; here process 1 writes, then process 0,
      // whose finish (after every process's write) writes the index.
      for (long p = 1; p >= 0; --p) {
        try (SaveOptions options = new SaveOptions()) {
          options.setProcess(p, 2);
          try (CheckpointSaver saver = new CheckpointSaver(dir, options)) {
            saver.addTensor("w", "F32", blocks, SHAPE);
            for (long device = 2 * p; device < 2 * p + 2; ++device) {
              saver.setShard(0, device, littleEndian(shards[(int) device]));
            }
            saver.write();
            if (p == 0) saver.finish();
          }
        }
      }
    }
  }

  static void restore(String dir) {
    try (CheckpointIndex index = new CheckpointIndex(dir);
         Mesh mesh = new Mesh(new long[] {3}, new String[] {"model"}, new String[] {"cpu:0", "cpu:1", "cpu:2"});
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout columns = new Layout(new String[] {null, "model"}, mesh)) {
      System.out.println("saved by " + index.numProcesses() + " processes: " + index.tensor(0));
      rules.set("w", columns);
      // No request (every tensor) and the default options (process 0 of 1).
      try (ReadPlan plan = index.restorePlan(rules, null, null)) {
        ByteBuffer[] buffers = plan.allocateBuffers();
        long read = plan.execute(buffers);
        List<ReadPiece> pieces = plan.pieces();
        for (int i = 0; i < buffers.length; ++i) {
          float[] values = new float[buffers[i].capacity() / Float.BYTES];
          buffers[i].order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
          System.out.println("device " + pieces.get(i).device() + " holds w"
              + Arrays.toString(pieces.get(i).ranges()) + ": " + Arrays.toString(values));
        }
        System.out.println("read " + read + " bytes");
      }
    }
  }

  /** `values` in a direct buffer, little-endian as safetensors stores them. */
  static ByteBuffer littleEndian(float[] values) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buffer.asFloatBuffer().put(values);
    return buffer;
  }
}
