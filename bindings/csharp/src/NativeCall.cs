// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// One native call that calls back into C# (a load's pieces and progress, a
// save's fill): the callbacks' state and how their exceptions reach the
// caller.
using System;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;

namespace Tessera {

/* The trampolines call the callbacks on the library's threads, where nothing
   may propagate: the first exception is kept, the callback answers "cancel",
   and the call throws the kept exception instead of the library's
   CANCELLED. */
internal abstract class NativeCall {
  Exception thrown;

  /* Runs `call` with this object's GCHandle as the native callbacks' key,
     then throws what a callback threw, if one did. */
  internal long Run(Func<long, long> call) {
    var handle = GCHandle.Alloc(this);
    try {
      long result = call(GCHandle.ToIntPtr(handle).ToInt64());
      ThrowKept();
      return result;
    } catch (TesseraException) when (Kept() != null) {
      ThrowKept();
      throw;
    } finally {
      handle.Free();
    }
  }

  Exception Kept() {
    lock (this) return thrown;
  }

  void ThrowKept() {
    Exception e = Kept();
    if (e != null) ExceptionDispatchInfo.Capture(e).Throw();
  }

  /* Keeps `e` unless an earlier callback's exception is kept already. */
  protected void Keep(Exception e) {
    lock (this) {
      if (thrown == null) thrown = e;
    }
  }

  /* The call whose GCHandle the trampoline passed as user_data. */
  protected static T Of<T>(IntPtr userData) where T : NativeCall {
    return (T)GCHandle.FromIntPtr(userData).Target;
  }
}

}  // namespace Tessera
