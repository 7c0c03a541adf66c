package org.tessera;

/**
 * An error from the Tessera library: its {@link Code} (absl's canonical codes)
 * and its message, which names the argument, the value and what was expected.
 * Errors of the cluster API also say why ({@link #getReason}), which process
 * caused them and which processes were missing. Unchecked, like the JDK's
 * IllegalArgumentException.
 */
public class TesseraException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Code code;
  private final ErrorReason reason;
  private final long sourceProcess;
  private final long[] missingProcesses;

  public TesseraException(Code code, String message) {
    this(code, message, ErrorReason.REASON_NONE, -1, new long[0]);
  }

  private TesseraException(Code code, String message, ErrorReason reason, long sourceProcess,
                           long[] missingProcesses) {
    super(message);
    this.code = code == null ? Code.UNKNOWN : code;
    this.reason = reason;
    this.sourceProcess = sourceProcess;
    this.missingProcesses = missingProcesses;
  }

  /** The error's code. */
  public Code getCode() {
    return code;
  }

  /** Why a cluster call failed beyond its code; REASON_NONE otherwise. */
  public ErrorReason getReason() {
    return reason;
  }

  /** The process that caused a cluster error; -1 when none. */
  public long getSourceProcess() {
    return sourceProcess;
  }

  /** The processes a barrier or registration was missing (empty when none). */
  public long[] getMissingProcesses() {
    return missingProcesses.clone();
  }

  @Override
  public String toString() {
    return "TesseraException(" + code + "): " + getMessage();
  }

  /** Called from the JNI glue: the C error's code, UTF-8 message and details. */
  static TesseraException fromNative(int code, byte[] utf8Message, int reason,
                                     long sourceProcess, long[] missingProcesses) {
    return new TesseraException(codeOf(code), Utf8.decode(utf8Message), reasonOf(reason),
                                sourceProcess,
                                missingProcesses == null ? new long[0] : missingProcesses);
  }

  private static ErrorReason reasonOf(int value) {
    try {
      return ErrorReason.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return ErrorReason.REASON_NONE;
    }
  }

  private static Code codeOf(int value) {
    try {
      return Code.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return Code.UNKNOWN;
    }
  }
}
