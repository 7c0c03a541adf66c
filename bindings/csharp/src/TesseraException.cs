// The one exception type of the binding: every tessera_error a call returns
// arrives as a TesseraException carrying the library's code and message.
namespace Tessera {

public class TesseraException : global::System.Exception {
  /** The library's error code (absl's canonical codes, same numbers). */
  public Code Code { get; }

  /** Why a cluster call failed beyond its code (ErrorReason.None otherwise). */
  public ErrorReason Reason { get; }

  /** The process that caused a cluster failure; -1 when none. */
  public long SourceProcess { get; }

  public TesseraException(Code code, string message) : this(code, message, ErrorReason.None, -1) {}

  public TesseraException(Code code, string message, ErrorReason reason, long sourceProcess) : base(message) {
    Code = code;
    Reason = reason;
    SourceProcess = sourceProcess;
  }

  public override string ToString() {
    return "TesseraException(" + Code + "): " + Message;
  }

  /* Sizes and indices are C# longs; the C side takes size_t. A negative value
     would wrap to a huge one, so it is rejected here with the library's
     message style. */
  internal static void CheckNonNegative(long value, string name) {
    if (value < 0) {
      throw new TesseraException(Code.InvalidArgument,
          "Argument '" + name + "' must be >= 0, got " + value);
    }
  }
}

}
