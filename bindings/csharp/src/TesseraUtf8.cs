// String arguments as NUL-terminated UTF-8 (see tessera_csharp.i).
using System.Text;

namespace Tessera {

internal static class TesseraUtf8 {
  internal static byte[] Encode(string value) {
    if (value == null) return null;
    byte[] bytes = new byte[Encoding.UTF8.GetMaxByteCount(value.Length) + 1];
    int length = Encoding.UTF8.GetBytes(value, 0, value.Length, bytes, 0);
    bytes[length] = 0;
    return bytes;
  }
}

}
