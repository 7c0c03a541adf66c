// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/**
 * Loads the JNI library once per class loader: from the path in the system
 * property {@code tessera.jni.library} when it is set (tests, embedded
 * copies), else {@code System.loadLibrary("tessera_jni")} (java.library.path,
 * e.g. /usr/lib/x86_64-linux-gnu/jni).
 */
final class NativeLibrary {
  /** The system property naming the JNI library's file. */
  static final String PATH_PROPERTY = "tessera.jni.library";

  private static boolean loaded;

  private NativeLibrary() {}

  static synchronized void load() {
    if (loaded) return;
    String path = System.getProperty(PATH_PROPERTY);
    if (path != null && !path.isEmpty()) {
      System.load(new java.io.File(path).getAbsolutePath());
    } else {
      System.loadLibrary("tessera_jni");
    }
    loaded = true;
  }
}
