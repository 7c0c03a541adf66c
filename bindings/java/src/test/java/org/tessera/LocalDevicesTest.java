// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Local device discovery through the binding. Runs in its own JVM with
 * TESSERA_DEVICES="gpu*2:Test GPU" (meson test java_local_devices; the
 * package-wide run excludes it, Java cannot set its own environment).
 */
class LocalDevicesTest {
  @Test
  void tesseraDevicesGivesTwoTestGpusFirst() {
    try (LocalDevices devices = new LocalDevices()) {
      long gpus = 0;
      for (long i = 0; i < devices.numDevices(); ++i) {
        if (devices.platform(i) == Platform.GPU) {
          assertEquals("Test GPU", devices.kind(i));
          assertEquals(gpus, devices.ordinal(i));
          ++gpus;
        }
      }
      assertEquals(2, gpus);
      assertEquals(Platform.GPU, devices.platform(0));
      assertEquals(Platform.GPU, devices.platform(1));
    }
  }
}
