// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Shardy text through the binding (experimental; sharding_cases.md S7 and S21). */
class ShardyTest {
  private static final String MESH_2X4 = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>";

  private static Mesh mesh2x4() {
    return new Mesh(new long[] {2, 4}, new String[] {"x", "y"}, Fixtures.cpus(8));
  }

  @Test
  void layoutPrintsAsAShardySharding() { // S7
    try (Mesh mesh = mesh2x4(); Layout layout = Layout.fromPartitionSpec("P(('y', 'x'))", mesh, 2)) {
      assertEquals("#sdy.sharding<@mesh, [{\"y\", \"x\"}, {}]>", layout.toShardyText(null));
    }
  }

  @Test
  void meshPrintsAsAShardySymbolOfTheGivenName() {
    try (Mesh mesh = mesh2x4()) {
      assertEquals("sdy.mesh @m = <[\"x\"=2, \"y\"=4]>", mesh.toShardyText("m"));
    }
  }

  @Test
  void meshTextPlacesTheAssignmentByDeviceIds() {
    try (Mesh expected = new Mesh(new long[] {4}, new String[] {"x"},
             new String[] {"cpu:0", "cpu:2", "cpu:1", "cpu:3"});
         Mesh parsed = Mesh.fromShardyText("sdy.mesh @mesh = <[\"x\"=4], device_ids=[0, 2, 1, 3]>",
             Fixtures.cpus(4))) {
      assertEquals(expected, parsed);
    }
  }

  @Test
  void openDimParsesToTheUnconstrainedLayout() { // S21
    try (Mesh mesh = mesh2x4();
         Layout expected = Layout.fromPartitionSpec("P(UNCONSTRAINED, 'y')", mesh, 2);
         Layout parsed = Layout.fromShardyText("#sdy.sharding<@mesh, [{?}, {\"y\"}]>", MESH_2X4,
             Fixtures.cpus(8))) {
      assertEquals(expected, parsed);
    }
  }

  @Test
  void subAxisIsRefusedWithPositionAndToken() {
    TesseraException e = assertThrows(TesseraException.class,
        () -> Layout.fromShardyText("#sdy.sharding<@mesh, [{\"y\":(2)2}]>", MESH_2X4, Fixtures.cpus(8)));
    assertEquals("Shardy sharding text: at position 26: ':' starts a sub-axis of \"y\": Tessera layouts have "
        + "no sub-axes", e.getMessage());
  }
}
