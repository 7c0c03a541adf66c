// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.tessera.Checkpoint;
import org.tessera.KeyMatch;
import org.tessera.Layout;
import org.tessera.LayoutMap;
import org.tessera.Mesh;
import org.tessera.ReadOptions;
import org.tessera.ReadPiece;
import org.tessera.ReadPlan;

/**
 * Reads one process's shards of a safetensors checkpoint into direct
 * ByteBuffers: the plan says which bytes of the file the process's devices
 * need (each replicated tensor read once), and execute reads exactly those.
 * It writes a small checkpoint first (w: U8 [4, 6], b: U8 [6], data byte i is
 * i), then loads process 0 of 2 on a 2x2 mesh with the rule w -> (x, y).
 */
public final class LoadExample {
  static final String HEADER = "{\"w\":{\"dtype\":\"U8\",\"shape\":[4,6],\"data_offsets\":[0,24]},"
      + "\"b\":{\"dtype\":\"U8\",\"shape\":[6],\"data_offsets\":[24,30]}}";

  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("tessera-load-example");
    Path path = dir.resolve("model.safetensors");
    try {
      byte[] json = HEADER.getBytes(StandardCharsets.UTF_8);
      ByteBuffer file = ByteBuffer.allocate(8 + json.length + 30).order(ByteOrder.LITTLE_ENDIAN);
      file.putLong(json.length).put(json);
      for (int i = 0; i < 30; ++i) file.put((byte) i);
      Files.write(path, file.array());
      load(path.toString());
    } finally {
      Files.deleteIfExists(path);
      Files.delete(dir);
    }
  }

  static void load(String path) {
    try (Checkpoint checkpoint = new Checkpoint(path);
         Mesh mesh = new Mesh(new long[] {2, 2}, new String[] {"x", "y"},
                              new String[] {"cpu:0", "cpu:1", "cpu:2", "cpu:3"});
         LayoutMap rules = new LayoutMap(mesh, KeyMatch.FULL);
         Layout rowsAndColumns = new Layout(new String[] {"x", "y"}, mesh);
         ReadOptions options = new ReadOptions()) {
      rules.set("w", rowsAndColumns);
      // This process is 0 of 2: it owns devices 0 and 1.
      options.setProcess(0, 2);
      try (ReadPlan plan = new ReadPlan(checkpoint, rules, options)) {
        System.out.println("process 0 of 2 reads " + plan.totalBytes() + " of the file's data bytes");
        ByteBuffer[] buffers = plan.allocateBuffers();
        long read = plan.execute(buffers);
        List<ReadPiece> pieces = plan.pieces();
        for (int i = 0; i < buffers.length; ++i) {
          ReadPiece piece = pieces.get(i);
          byte[] bytes = new byte[buffers[i].capacity()];
          buffers[i].get(0, bytes);
          System.out.println("device " + piece.device() + " " + checkpoint.tensor(piece.tensor()).name() + " "
              + Arrays.toString(piece.shape()) + ": " + Arrays.toString(bytes));
        }
        System.out.println("read " + read + " bytes");
      }
    }
  }
}
