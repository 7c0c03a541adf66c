// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Errors arrive as TesseraException with the library's code and message. */
class ErrorTest {
  @Test
  void nullArgumentIsInvalidArgumentNamingIt() {
    TesseraException e = assertThrows(TesseraException.class,
                                       () -> new Sharding(null, new long[] {8}, ShardMode.STRICT));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertEquals("Argument 'layout' is NULL; expected a valid pointer", e.getMessage());
  }

  @Test
  void unknownAxisIsInvalidArgument() {  // K9
    try (Mesh mesh = Fixtures.mesh(4, 2, "data", "model")) {
      TesseraException e = assertThrows(
          TesseraException.class, () -> new Layout(new String[] {"data", "unknown", null}, mesh));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Invalid axis names for Layout. Valid axis names: {'data', 'model'}, "
                   + "Got {'data', 'unknown'}", e.getMessage());
    }
  }

  @Test
  void invalidPatternIsInvalidArgumentNamingTheKey() {
    try (LayoutMap map = new LayoutMap(null, KeyMatch.SEARCH);
         Layout layout = new Layout(new String[] {"model"}, null)) {
      TesseraException e = assertThrows(TesseraException.class, () -> map.set("dense(", layout));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'key' 'dense(' is not a valid Python regular expression: "
                   + "missing ), unterminated subpattern at position 5", e.getMessage());
      assertEquals(0, map.numRules());
    }
  }

  @Test
  void indivisibleShapeIsInvalidArgument() {  // S3 with a dimension of 10
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y");
         Layout layout = new Layout(new String[] {"y", "x"}, mesh)) {
      TesseraException e = assertThrows(
          TesseraException.class, () -> new Sharding(layout, new long[] {10, 16}, ShardMode.STRICT));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'shape': the layout ('y', 'x') implies that array axis 0 is "
                   + "partitioned 4 times, but the dimension size is 10 (full shape: (10, 16), "
                   + "per-dimension tiling factors: [4, 2] should evenly divide the shape); "
                   + "expected divisible sizes in strict mode, or a chunk mode", e.getMessage());
    }
  }

  @Test
  void meshShapeNotMatchingTheDevicesIsInvalidArgument() {  // K7
    TesseraException e = assertThrows(
        TesseraException.class,
        () -> new Mesh(new long[] {4, 2}, new String[] {"batch", "model"}, Fixtures.cpus(4)));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertEquals("Shape does not match the number of devices. Received: shape=(4, 2); "
                 + "devices.shape=(4,)", e.getMessage());
  }

  @Test
  void indexOutOfRangeIsOutOfRange() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      TesseraException e = assertThrows(TesseraException.class, () -> mesh.axisName(2));
      assertEquals(Code.OUT_OF_RANGE, e.code());
    }
  }

  @Test
  void negativeIndexIsOutOfRangeNotACrash() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      TesseraException e = assertThrows(TesseraException.class, () -> mesh.device(-1));
      assertEquals(Code.OUT_OF_RANGE, e.code());
    }
  }

  @Test
  void unknownAxisNameIsNotFound() {
    try (Mesh mesh = Fixtures.mesh(2, 4, "x", "y")) {
      TesseraException e = assertThrows(TesseraException.class, () -> mesh.axisSize("z"));
      assertEquals(Code.NOT_FOUND, e.code());
    }
  }

  @Test
  void severalMatchingPatternsIsFailedPrecondition() {  // K31
    try (Mesh mesh = Fixtures.mesh(4, 2, "data", "model");
         LayoutMap map = new LayoutMap(mesh, KeyMatch.SEARCH);
         Layout r1 = new Layout(new String[] {null}, null);
         Layout s1 = new Layout(new String[] {"model"}, null)) {
      map.set(".*dense.*bias", r1);
      map.set(".*bias", s1);
      TesseraException e = assertThrows(TesseraException.class, () -> map.get("dense_2/bias"));
      assertEquals(Code.FAILED_PRECONDITION, e.code());
      assertNull(map.get("conv2d/kernel"));
    }
  }

  @Test
  void stringWithNulIsRejectedBeforeTheCall() {
    TesseraException e = assertThrows(TesseraException.class, () -> Device.parse("cpu:1\0junk"));
    assertEquals(Code.INVALID_ARGUMENT, e.code());
    assertEquals("Argument strings must not contain NUL, got one at index 5", e.getMessage());
  }

  @Test
  void exceptionIsUnchecked() {
    RuntimeException e = new TesseraException(Code.ABORTED, "m");
    assertEquals("TesseraException(ABORTED): m", e.toString());
  }
}
