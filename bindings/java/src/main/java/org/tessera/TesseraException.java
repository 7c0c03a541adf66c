package org.tessera;

/**
 * An error from the Tessera library: its {@link Code} (absl's canonical codes)
 * and its message, which names the argument, the value and what was expected.
 * Unchecked, like the JDK's IllegalArgumentException.
 */
public class TesseraException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Code code;

  public TesseraException(Code code, String message) {
    super(message);
    this.code = code == null ? Code.UNKNOWN : code;
  }

  /** The error's code. */
  public Code getCode() {
    return code;
  }

  @Override
  public String toString() {
    return "TesseraException(" + code + "): " + getMessage();
  }

  /** Called from the JNI glue: the C code and the UTF-8 message. */
  static TesseraException fromNative(int code, byte[] utf8Message) {
    return new TesseraException(codeOf(code), Utf8.decode(utf8Message));
  }

  private static Code codeOf(int value) {
    try {
      return Code.swigToEnum(value);
    } catch (IllegalArgumentException e) {
      return Code.UNKNOWN;
    }
  }
}
