// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Arrays, strings and bytes cross the binding unchanged. */
class RoundTripTest {
  // Cyrillic, CJK, and a character outside the BMP (a surrogate pair in Java).
  private static final String[] NAMES = {"данные", "模型", "axis\uD83E\uDDE9"};

  @Test
  void nonAsciiAxisNamesRoundTrip() {
    try (Mesh mesh = new Mesh(new long[] {2, 2, 2}, NAMES, Fixtures.cpus(8))) {
      assertArrayEquals(NAMES, mesh.axisNames());
      assertEquals(2, mesh.axisSize("模型"));
      assertEquals(2, mesh.axisIndex("axis\uD83E\uDDE9"));
    }
  }

  @Test
  void nonAsciiNamesSurviveJson() {
    try (Mesh mesh = new Mesh(new long[] {2, 2, 2}, NAMES, Fixtures.cpus(8));
         Mesh back = Mesh.fromJson(mesh.toJson())) {
      assertEquals(mesh, back);
      assertArrayEquals(NAMES, back.axisNames());
    }
  }

  @Test
  void shapeRoundTrips() {
    try (Mesh mesh = new Mesh(new long[] {1, 2, 4}, new String[] {"a", "b", "c"},
                              Fixtures.cpus(8))) {
      assertArrayEquals(new long[] {1, 2, 4}, mesh.shape());
    }
  }

  @Test
  void coordinatesAndDeviceIdsRoundTrip() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      for (long id = 0; id < 8; ++id) {
        long[] coords = mesh.deviceCoordinates(id);
        assertArrayEquals(new long[] {id / 4, id % 4}, coords);
        assertEquals(id, mesh.deviceAt(coords));
      }
      assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7}, mesh.xlaDeviceOrder());
    }
  }

  @Test
  void layoutAxesWithNullEntriesRoundTrip() {
    try (Layout layout = new Layout(new String[] {null, "модель", null}, null)) {
      assertEquals(3, layout.numDims());
      assertEquals(0, layout.numAxes(0));
      assertEquals("модель", layout.axis(1, 0));
      assertEquals("P(None, 'модель', None)", layout.toPartitionSpec());
    }
  }

  @Test
  void groupedLayoutRoundTrips() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = Layout.grouped(new String[] {"x", "y"}, new long[] {2, 0}, mesh)) {
      assertEquals(2, layout.numAxes(0));
      assertEquals("y", layout.axis(0, 1));
      assertEquals("P(('x', 'y'), None)", layout.toPartitionSpec());
    }
  }

  @Test
  void protoBytesRoundTrip() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", null}, mesh);
         Layout back = Layout.fromProto(layout.toProto())) {
      assertEquals(layout, back);
      assertArrayEquals(layout.toProto(), back.toProto());
    }
  }

  @Test
  void opShardingBytesRoundTrip() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", "x"}, mesh);
         Layout back = Layout.fromOpSharding(layout.toOpSharding(2, true), mesh, 2)) {
      assertEquals(layout, back);
    }
  }

  @Test
  void layoutMapKeysRoundTripThroughJson() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         LayoutMap map = new LayoutMap(mesh, KeyMatch.FULL);
         Layout layout = new Layout(new String[] {"y"}, null)) {
      map.set("слой/.*/ядро", layout);
      try (LayoutMap back = LayoutMap.fromJson(map.toJson())) {
        assertEquals("слой/.*/ядро", back.key(0));
        assertEquals(KeyMatch.FULL, back.match());
        assertEquals(0, back.find("слой/1/ядро"));
      }
    }
  }

  @Test
  void nullStringArrayMeansDefaultDevices() {
    try (Mesh mesh = new Mesh(new long[] {8}, new String[] {"batch"}, null)) {
      assertEquals(8, mesh.numDevices());
    }
  }

  @Test
  void emptyResultsAreEmptyArraysAndNull() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout scalar = Layout.replicated(0, mesh);
         Sharding sharding = new Sharding(scalar, new long[] {}, ShardMode.STRICT)) {
      assertArrayEquals(new long[] {}, sharding.deviceRanges(3));
      assertEquals(0, scalar.numDims());
    }
  }
}
