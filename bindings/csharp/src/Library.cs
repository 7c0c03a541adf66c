// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

namespace Tessera {

/// <summary>The loaded native library: its version, and whether it can serve this binding.</summary>
public static class Library {
  /// <summary>The loaded library's version, major * 10000 + minor * 100 + patch.</summary>
  public static long Version => tessera.version();

  /// <summary>The loaded library's version as "major.minor.patch".</summary>
  public static string VersionString => tessera.version_string();

  /// <summary>
  /// Why a library of version <paramref name="loaded"/> cannot serve this binding, or null when it
  /// can: the same major, a minor not older than the one the binding was built for.
  /// </summary>
  public static string VersionProblem(long loaded) => tessera.binding_version_problem((uint)loaded);

  /// <summary>
  /// Run by the P/Invoke class's type initializer, before any other native call: a mismatch
  /// would surface later as wrong answers or a crash.
  /// </summary>
  internal static bool CheckVersion() {
    string problem = VersionProblem(Version);
    if (problem != null) throw new System.TypeLoadException(problem);
    return true;
  }
}

}
