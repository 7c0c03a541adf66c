package org.tessera;

/** Library-wide facts: the loaded native library's version and code names. */
public final class Tessera {
  private Tessera() {}

  /** The loaded library's version, major * 10000 + minor * 100 + patch. */
  public static long version() {
    return tessera.version();
  }

  /** The loaded library's version as "major.minor.patch". */
  public static String versionString() {
    return tessera.version_string();
  }

  /** "INVALID_ARGUMENT" for Code.INVALID_ARGUMENT. */
  public static String codeName(Code code) {
    return tessera.code_name(code);
  }

  /** "cpu", "gpu" or "tpu". */
  public static String platformName(Platform platform) {
    return tessera.platform_name(platform);
  }
}
