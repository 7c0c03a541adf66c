// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/** Meshes the tests share, built from explicit devices (independent of discovery). */
final class Fixtures {
  private Fixtures() {}

  static String[] cpus(int count) {
    String[] devices = new String[count];
    for (int i = 0; i < count; ++i) devices[i] = "cpu:" + i;
    return devices;
  }

  /** shape (a, b) over cpu:0..a*b-1. */
  static Mesh mesh(long a, long b, String first, String second) {
    return new Mesh(new long[] {a, b}, new String[] {first, second}, cpus((int) (a * b)));
  }
}
