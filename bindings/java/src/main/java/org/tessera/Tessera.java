// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

/** Library-wide facts: the loaded native library's version and code names. */
public final class Tessera {
  private Tessera() {}

  /** The loaded library's version, major * 10000 + minor * 100 + patch. */
  public static long version() {
    return tessera.version();
  }

  /**
   * Why a library of version {@code loaded} (major * 10000 + minor * 100 +
   * patch) cannot serve this binding, or null when it can: the same major, a
   * minor not older than the one the binding was built for. Loading the
   * binding runs this check on the library it found and throws
   * UnsatisfiedLinkError with the message.
   */
  public static String versionProblem(long loaded) {
    return tessera.binding_version_problem(loaded);
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

  private static boolean shutdownHookAdded;

  /**
   * Routes the library's log messages of `minLevel` and above to `handler`; a
   * null handler restores the default (stderr, warnings and above). The
   * handler runs on the thread that logs (see {@link LogHandler}); a message
   * being delivered while the handler is replaced may still reach the old one.
   * Once the JVM shuts down, messages go to stderr again.
   */
  public static synchronized void setLogHandler(LogHandler handler, LogLevel minLevel) {
    if (minLevel == null) {
      throw new TesseraException(Code.INVALID_ARGUMENT,
                                 "Argument 'minLevel' must be a LogLevel, got null");
    }
    if (LogDispatch.inHandler()) {
      throw new TesseraException(Code.FAILED_PRECONDITION,
                                 "setLogHandler called from inside a log handler");
    }
    if (handler != null && !shutdownHookAdded) {
      // Library threads must not call into a JVM that is going away.
      Runtime.getRuntime().addShutdownHook(
          new Thread(tessera::log_handler_shutdown_native, "tessera-log-shutdown"));
      shutdownHookAdded = true;
    }
    tessera.set_log_handler_native(handler, minLevel.swigValue());
  }
}
