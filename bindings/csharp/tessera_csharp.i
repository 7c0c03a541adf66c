/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The C#-specific half of the SWIG interface. ../tessera.i includes this file
 * (under `#if defined(SWIGCSHARP)`) before the common declarations and
 * %applies the contract typemaps defined here (see the contract in
 * ../tessera.i):
 *   - TESSERA_SWIG_RAISE(err): the pending-exception mechanism of SWIG's C#
 *     module (CSharp.html, "Custom C# ApplicationException example"): a
 *     delegate registered once turns the error into a Tessera.TesseraException
 *     with its Code and message; the C# half of the same call throws it (the
 *     common argout typemap is canthrow=1). No global error state in C: the
 *     pending slot is thread-static in C#.
 *   - size_t is C# `long` (SWIG's default is a 32-bit uint).
 *   - (TESSERA_INT64_IN) long[], (TESSERA_STRINGS_IN) string[] (UTF-8, null
 *     entries allowed), (TESSERA_BYTES_IN) byte[]: the array is pinned for the
 *     call and its length is the count (OR-Tools' "pointer, length" pair).
 *   - const char* arguments: NUL-terminated UTF-8 byte[] pinned for the call;
 *     results: string (UTF-8).
 *   - tessera_buffer* -> byte[], tessera_swig_text* -> string,
 *     tessera_swig_int64s -> long[], tessera_swig_bytes -> byte[]: copied into managed memory, then the
 *     native memory is freed.
 *   - Names: methods PascalCase (Mesh.AxisName), enum items PascalCase
 *     (Code.InvalidArgument), to_string as an override of ToString().
 *   - Proxies: `public partial class` (hand-written members in src/*.cs),
 *     IDisposable with SafeHandle-style finalization.
 *   - Native callbacks (Client.SetEventCallback, Log.SetHandler): the C
 *     callback is a trampoline here that calls one static C# delegate
 *     (registered once, never collected) on the library's own thread, then
 *     detaches that thread from Mono again so that Mono's exit never waits
 *     for it ("native callbacks" below; src/Callbacks.cs has the
 *     measurements).
 */

/* ---- errors ------------------------------------------------------------- */

%insert(runtime) %{
/* Raises a TesseraException on the calling thread: a C# delegate registered
   once by the intermediary class; the exception becomes "pending" and the C#
   side of the same call throws it (SWIG's pending-exception mechanism). No
   global error state: the pending slot is thread-static in C#. */
#include <stdint.h>
typedef void (SWIGSTDCALL* TesseraCsRaiseCallback)(int code, const char* message, int reason,
                                                   int64_t source_process, const void* error);
static TesseraCsRaiseCallback tessera_cs_raise_callback = NULL;

SWIGEXPORT void SWIGSTDCALL TesseraCsRegisterRaiseCallback(TesseraCsRaiseCallback callback) {
  tessera_cs_raise_callback = callback;
}
%}

%{
#include "tessera/tessera.h"

/* Hands `err` to C# as a pending TesseraException, then frees it. Does not
   return from the wrapper (the contract of ../tessera.i): freearg cleanup
   still runs, and the C# side throws once the call is back. The callback
   reads the missing and arrived processes through the accessors below while
   `err` is still alive. */
static void tessera_cs_raise(tessera_error* err) {
  if (tessera_cs_raise_callback != NULL) {
    tessera_cs_raise_callback((int)tessera_error_code(err), tessera_error_message(err),
                              (int)tessera_error_reason(err, NULL), tessera_error_source_process(err, NULL),
                              err);
  }
  tessera_error_destroy(err);
}

/* A failed barrier's or registration's processes (TesseraException's
   MissingProcesses and ArrivedProcesses), read during the raise callback. */
SWIGEXPORT int64_t SWIGSTDCALL TesseraCsErrorMissingCount(const void* err) {
  return (int64_t)tessera_error_num_missing((const tessera_error*)err, NULL);
}
SWIGEXPORT int64_t SWIGSTDCALL TesseraCsErrorMissingProcess(const void* err, int64_t index) {
  return tessera_error_missing_process((const tessera_error*)err, (size_t)index, NULL);
}
SWIGEXPORT int SWIGSTDCALL TesseraCsErrorMissingState(const void* err, int64_t index) {
  return (int)tessera_error_missing_state((const tessera_error*)err, (size_t)index, NULL);
}
/* Borrowed (lifetime of `err`): C# copies it as UTF-8. */
SWIGEXPORT const char* SWIGSTDCALL TesseraCsErrorMissingWaitingAt(const void* err, int64_t index) {
  return tessera_error_missing_waiting_at((const tessera_error*)err, (size_t)index, NULL);
}
SWIGEXPORT int64_t SWIGSTDCALL TesseraCsErrorArrivedCount(const void* err) {
  return (int64_t)tessera_error_num_arrived((const tessera_error*)err, NULL);
}
SWIGEXPORT int64_t SWIGSTDCALL TesseraCsErrorArrivedProcess(const void* err, int64_t index) {
  return tessera_error_arrived_process((const tessera_error*)err, (size_t)index, NULL);
}
#define TESSERA_SWIG_RAISE(err) tessera_cs_raise(err)

/* Owned buffers: C# copies the bytes out, then destroys the buffer. */
SWIGEXPORT const void* SWIGSTDCALL TesseraCsBufferData(void* buffer) {
  return tessera_buffer_data((const tessera_buffer*)buffer);
}
SWIGEXPORT int64_t SWIGSTDCALL TesseraCsBufferSize(void* buffer) {
  return (int64_t)tessera_buffer_size((const tessera_buffer*)buffer);
}
SWIGEXPORT void SWIGSTDCALL TesseraCsBufferDestroy(void* buffer) {
  tessera_buffer_destroy((tessera_buffer*)buffer);
}
/* Frees the data of a tessera_swig_int64s (malloc'd by the wrapper). */
SWIGEXPORT void SWIGSTDCALL TesseraCsFree(void* data) { free(data); }

%}

%pragma(csharp) imclassimports=%{
#pragma warning disable 1591
using global::System;
using global::System.Runtime.InteropServices;
%}

%pragma(csharp) imclasscode=%{
  /* The version check (Library.CheckVersion) runs in this class's type
     initializer, so no native call precedes it. */
  internal static readonly bool VersionChecked = Tessera.Library.CheckVersion();

  /* Registers the callback that turns a tessera_error into a pending
     TesseraException. The delegate lives in a static field so the GC never
     collects it while native code holds its function pointer. */
  protected class TesseraErrorHelper {
    public delegate void RaiseDelegate(int code, [MarshalAs(UnmanagedType.LPUTF8Str)] string message, int reason,
                                       long sourceProcess, IntPtr error);
    static readonly RaiseDelegate raiseDelegate = new RaiseDelegate(Raise);

    [DllImport("$dllimport", EntryPoint="TesseraCsRegisterRaiseCallback")]
    static extern void TesseraCsRegisterRaiseCallback(RaiseDelegate callback);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorMissingCount")]
    static extern long TesseraCsErrorMissingCount(IntPtr error);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorMissingProcess")]
    static extern long TesseraCsErrorMissingProcess(IntPtr error, long index);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorMissingState")]
    static extern int TesseraCsErrorMissingState(IntPtr error, long index);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorMissingWaitingAt")]
    static extern IntPtr TesseraCsErrorMissingWaitingAt(IntPtr error, long index);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorArrivedCount")]
    static extern long TesseraCsErrorArrivedCount(IntPtr error);
    [DllImport("$dllimport", EntryPoint="TesseraCsErrorArrivedProcess")]
    static extern long TesseraCsErrorArrivedProcess(IntPtr error, long index);

    static void Raise(int code, string message, int reason, long sourceProcess, IntPtr error) {
      var missing = new MissingProcess[TesseraCsErrorMissingCount(error)];
      for (long i = 0; i < missing.LongLength; i++) {
        missing[i] = new MissingProcess(TesseraCsErrorMissingProcess(error, i),
                                        (TaskState)TesseraCsErrorMissingState(error, i),
                                        TesseraUtf8.Decode(TesseraCsErrorMissingWaitingAt(error, i)));
      }
      var arrived = new long[TesseraCsErrorArrivedCount(error)];
      for (long i = 0; i < arrived.LongLength; i++) arrived[i] = TesseraCsErrorArrivedProcess(error, i);
      SWIGPendingException.Set(new TesseraException((Code)code, message, (ErrorReason)reason, sourceProcess,
                                                    missing, arrived));
    }

    static TesseraErrorHelper() {
      TesseraCsRegisterRaiseCallback(raiseDelegate);
    }

  }

  static protected TesseraErrorHelper tesseraErrorHelper = new TesseraErrorHelper();

  /* The native callbacks' halves (src/Callbacks.cs, src/Log.cs); declared
     here so that the first call registers the raise callback first. */
  [DllImport("$dllimport", EntryPoint="TesseraCsSetCallbacks")]
  internal static extern void TesseraCsSetCallbacks(Callbacks.EventFn onEvent, Callbacks.LogFn onLog);
  [DllImport("$dllimport", EntryPoint="TesseraCsCloseCallbacks")]
  internal static extern int TesseraCsCloseCallbacks(long timeoutMs);
  [DllImport("$dllimport", EntryPoint="TesseraCsSetLogCallback")]
  internal static extern void TesseraCsSetLogCallback(int on, int minLevel);

  [DllImport("$dllimport", EntryPoint="TesseraCsBufferData")]
  internal static extern IntPtr TesseraCsBufferData(IntPtr buffer);
  [DllImport("$dllimport", EntryPoint="TesseraCsBufferSize")]
  internal static extern long TesseraCsBufferSize(IntPtr buffer);
  [DllImport("$dllimport", EntryPoint="TesseraCsBufferDestroy")]
  internal static extern void TesseraCsBufferDestroy(IntPtr buffer);
  [DllImport("$dllimport", EntryPoint="TesseraCsFree")]
  internal static extern void TesseraCsFree(IntPtr data);

  /* A tessera_swig_int64s: copied into a long[], then its data freed. null
     when the wrapper ran out of memory (data NULL, size > 0). */
  internal static long[] TakeInt64s(TesseraCsArray array) {
    try {
      if (array.data == IntPtr.Zero && array.size > 0) return null;
      long[] values = new long[array.size];
      if (array.size > 0) Marshal.Copy(array.data, values, 0, checked((int)array.size));
      return values;
    } finally {
      if (array.data != IntPtr.Zero) TesseraCsFree(array.data);
    }
  }

  internal static long[] Int64sOrThrow(long[] values) {
    if (values == null) throw new OutOfMemoryException("the binding could not allocate an int64 array");
    return values;
  }

  /* The bytes of a TesseraCsArray, copied (the caller frees them). */
  internal static byte[] CopyBytes(TesseraCsArray view) {
    byte[] bytes = new byte[view.size];
    if (view.size > 0) Marshal.Copy(view.data, bytes, 0, checked((int)view.size));
    return bytes;
  }

  /* Copies an owned tessera_buffer into a byte[] and destroys it; null for a
     NULL buffer (the call failed, and its exception is pending). */
  internal static byte[] TakeBuffer(IntPtr buffer) {
    if (buffer == IntPtr.Zero) return null;
    try {
      long size = TesseraCsBufferSize(buffer);
      byte[] bytes = new byte[size];
      if (size > 0) Marshal.Copy(TesseraCsBufferData(buffer), bytes, 0, checked((int)size));
      return bytes;
    } finally {
      TesseraCsBufferDestroy(buffer);
    }
  }

  internal static string TakeText(IntPtr buffer) {
    byte[] bytes = TakeBuffer(buffer);
    return bytes == null ? null : global::System.Text.Encoding.UTF8.GetString(bytes);
  }
%}

/* ---- native callbacks ---------------------------------------------------- */

%{
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>

/* The C# entry points of the library's callbacks: static delegates that
   src/Callbacks.cs registers once (their function pointers stay valid for the
   life of the process). */
typedef void (SWIGSTDCALL* TesseraCsEventFn)(const tessera_event* event, void* user_data);
typedef void (SWIGSTDCALL* TesseraCsLogFn)(int level, const char* message, int64_t size);
static TesseraCsEventFn volatile tessera_cs_event_fn = NULL;
static TesseraCsLogFn volatile tessera_cs_log_fn = NULL;

SWIGEXPORT void SWIGSTDCALL TesseraCsSetCallbacks(TesseraCsEventFn on_event, TesseraCsLogFn on_log) {
  __atomic_store_n(&tessera_cs_event_fn, on_event, __ATOMIC_SEQ_CST);
  __atomic_store_n(&tessera_cs_log_fn, on_log, __ATOMIC_SEQ_CST);
}

/* The door the runtime's ProcessExit closes: from then on no library thread
   enters C# (Mono aborts a thread that attaches while it shuts down), and
   the close waits for the trampolines already inside. Sequentially
   consistent: a trampoline that counts itself in after the close has read
   the count sees the door closed. */
static int tessera_cs_in_flight = 0;
static int tessera_cs_closed = 0;
/* Trampolines running on this thread: a callback that makes the process
   exit (Environment.Exit) closes the door from inside itself. */
static __thread int tessera_cs_depth = 0;

static int tessera_cs_begin(void) {
  __atomic_add_fetch(&tessera_cs_in_flight, 1, __ATOMIC_SEQ_CST);
  if (!__atomic_load_n(&tessera_cs_closed, __ATOMIC_SEQ_CST)) {
    ++tessera_cs_depth;
    return 1;
  }
  __atomic_sub_fetch(&tessera_cs_in_flight, 1, __ATOMIC_SEQ_CST);
  return 0;
}

static void tessera_cs_end(void) {
  --tessera_cs_depth;
  __atomic_sub_fetch(&tessera_cs_in_flight, 1, __ATOMIC_SEQ_CST);
}

/* Closes the door and waits up to timeout_ms for the callbacks running now
   on other threads; whether they all returned. */
SWIGEXPORT int SWIGSTDCALL TesseraCsCloseCallbacks(int64_t timeout_ms) {
  int64_t waited;
  __atomic_store_n(&tessera_cs_closed, 1, __ATOMIC_SEQ_CST);
  for (waited = 0; __atomic_load_n(&tessera_cs_in_flight, __ATOMIC_SEQ_CST) != tessera_cs_depth;
       ++waited) {
    if (waited >= timeout_ms) return 0;
    poll(NULL, 0, 1); /* 1 ms (declared without feature macros, unlike nanosleep) */
  }
  return 1;
}

/*
 * Why a library thread leaves Mono after each callback. Mono attaches a
 * native thread the first time it runs a delegate (as a background thread)
 * and keeps it attached. At exit, Mono aborts every attached background
 * thread and waits, without a time limit, for each to end; an abort reaches
 * a thread only when it runs managed code, and the library's threads (the
 * event dispatcher, gRPC's) stay parked in native code for the life of the
 * process, so the process hung at exit. A thread the trampoline found
 * unattached is therefore detached again once the delegate has returned,
 * and Mono's exit never sees it; its next callback attaches it afresh. A
 * thread that was attached before (a C# thread whose call logged) is left
 * as it was. Measured in src/Callbacks.cs.
 *
 * The detach is mono_thread_info_detach: what Mono itself runs when an
 * attached thread ends (the thread's TLS destructor), which unregisters it
 * from the runtime and the GC. mono_thread_detach, the documented embedding
 * call, is not enough here: it leaves the thread's low-level registration
 * behind in the state the delegate's wrapper left it in, and the thread's
 * next callback then aborted the process in Mono 6.8 ("Cannot transition
 * thread ... from STATE_BLOCKING with DO_BLOCKING").
 *
 * Both functions are looked up in the process (the mono executable exports
 * them); where they are absent (another runtime, whose native threads do not
 * hold up its exit), nothing is detached.
 */
typedef struct tessera_cs_mono_api {
  void* (*domain_get)(void); /* NULL on a thread outside managed code's reach */
  void (*thread_info_detach)(void);
} tessera_cs_mono_api;
static tessera_cs_mono_api tessera_cs_mono;
static pthread_once_t tessera_cs_mono_once = PTHREAD_ONCE_INIT;

static void tessera_cs_find_mono(void) {
  void* self = dlopen(NULL, RTLD_LAZY); /* the executable and what it loaded globally */
  tessera_cs_mono_api api;
  if (self == NULL) return;
  *(void**)&api.domain_get = dlsym(self, "mono_domain_get");
  *(void**)&api.thread_info_detach = dlsym(self, "mono_thread_info_detach");
  if (api.domain_get != NULL && api.thread_info_detach != NULL) tessera_cs_mono = api;
}

/* Whether this thread must leave Mono after the callback: it has no current
   domain, so it is not a thread of the runtime's (those keep theirs while in
   native code) but a library thread, which the trampolines leave detached. */
static int tessera_cs_enter(void) {
  pthread_once(&tessera_cs_mono_once, tessera_cs_find_mono);
  return tessera_cs_mono.domain_get != NULL && tessera_cs_mono.domain_get() == NULL;
}

/* Unregisters the thread from the runtime entirely, as Mono does when an
   attached thread ends (its TLS destructor runs this same function). */
static void tessera_cs_leave(int detach) {
  if (detach) tessera_cs_mono.thread_info_detach();
}

/* tessera_event_fn: user_data is the GCHandle of the client's C#
   callback. */
static void tessera_cs_on_event(const tessera_event* event, void* user_data) {
  TesseraCsEventFn fn;
  if (!tessera_cs_begin()) return;
  fn = __atomic_load_n(&tessera_cs_event_fn, __ATOMIC_SEQ_CST);
  if (fn != NULL) {
    int detach = tessera_cs_enter();
    fn(event, user_data);
    tessera_cs_leave(detach);
  }
  tessera_cs_end();
}

/* tessera_log_fn: the one C# handler is looked up on the C# side. */
static void tessera_cs_on_log(tessera_log_level_t level, const char* message, size_t size,
                              void* user_data) {
  TesseraCsLogFn fn;
  (void)user_data;
  if (!tessera_cs_begin()) return;
  fn = __atomic_load_n(&tessera_cs_log_fn, __ATOMIC_SEQ_CST);
  if (fn != NULL) {
    int detach = tessera_cs_enter();
    fn((int)level, message, (int64_t)size);
    tessera_cs_leave(detach);
  }
  tessera_cs_end();
}

/* Installs the trampoline (on != 0) or the default stderr sink (off), as
   Log.SetHandler's native half (src/Log.cs); an error is raised as pending
   like any wrapper's. */
SWIGEXPORT void SWIGSTDCALL TesseraCsSetLogCallback(int on, int min_level) {
  tessera_error* err = NULL;
  if (!tessera_log_set_callback(on ? tessera_cs_on_log : NULL, NULL,
                                (tessera_log_level_t)min_level, &err)) {
    TESSERA_SWIG_RAISE(err);
  }
}
%}


/* ---- 64-bit sizes ------------------------------------------------------- */

/* SWIG's C# library maps size_t to uint: counts above 4 Gi would truncate.
   C# indexes and lengths are signed, so size_t is `long`; a negative value is
   rejected before the call with the library's own message style. */
%apply long long { size_t };
%apply const long long & { const size_t & };
%typemap(csin, pre="    TesseraException.CheckNonNegative($csinput, \"$1_name\");") size_t "$csinput"

/* ---- (pointer, count) inputs -------------------------------------------- */

/* The C# array becomes the pointer (pinned by P/Invoke for the call, no copy)
   and its length the count; null passes (NULL, 0). Same "pointer, length"
   ctype/imtype pair as OR-Tools' csharp/vector.i. */
%define TESSERA_CS_ARRAY(CTYPE, CSTYPE, PATTERN)
%typemap(ctype)  PATTERN "CTYPE* arr$argnum, int64_t"
%typemap(imtype) PATTERN "CSTYPE[] arr$argnum, long"
%typemap(cstype) PATTERN "CSTYPE[]"
%typemap(csin)   PATTERN "$csinput, $csinput == null ? 0L : $csinput.LongLength"
%typemap(in) PATTERN %{
  $1 = ($1_ltype)arr$argnum;
  $2 = ($2_ltype)$input;
%}
%enddef

TESSERA_CS_ARRAY(int64_t, long, %arg((const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT)))
TESSERA_CS_ARRAY(unsigned char, byte, %arg((const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE)))

/* string[] -> const char* const*: each element marshalled as a NUL-terminated
   UTF-8 copy for the duration of the call; a null element stays NULL. */
%typemap(ctype)  (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "char** arr$argnum, int64_t"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.MarshalAs(global::System.Runtime.InteropServices.UnmanagedType.LPArray, ArraySubType=global::System.Runtime.InteropServices.UnmanagedType.LPUTF8Str)] ")
    (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "string[] arr$argnum, long"
%typemap(cstype) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "string[]"
%typemap(csin)   (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "$csinput, $csinput == null ? 0L : $csinput.LongLength"
%typemap(in) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) %{
  $1 = ($1_ltype)arr$argnum;
  $2 = ($2_ltype)$input;
%}

/* ---- owned and borrowed results ----------------------------------------- */

%typemap(ctype)  tessera_buffer*, tessera_swig_text* "void*"
%typemap(imtype) tessera_buffer*, tessera_swig_text* "global::System.IntPtr"
%typemap(cstype) tessera_buffer* "byte[]"
%typemap(cstype) tessera_swig_text* "string"
%typemap(out)    tessera_buffer*, tessera_swig_text* %{ $result = (void*)$1; %}
%typemap(csout, excode=SWIGEXCODE) tessera_buffer* {
    global::System.IntPtr buffer = $imcall;$excode
    return $imclassname.TakeBuffer(buffer);
  }
%typemap(csout, excode=SWIGEXCODE) tessera_swig_text* {
    global::System.IntPtr buffer = $imcall;$excode
    return $imclassname.TakeText(buffer);
  }

/* Both structs are {pointer, size_t}: returned by value (two registers), read
   in C# as TesseraCsArray (src/TesseraCsArray.cs). The array is copied and
   freed before the pending-exception check, so nothing leaks on a throw. */
%typemap(ctype)  tessera_swig_int64s "$1_ltype"
%typemap(imtype) tessera_swig_int64s "TesseraCsArray"
%typemap(cstype) tessera_swig_int64s "long[]"
%typemap(out)    tessera_swig_int64s %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) tessera_swig_int64s {
    long[] values = $imclassname.TakeInt64s($imcall);$excode
    return $imclassname.Int64sOrThrow(values);
  }

/* Bytes the wrapper malloc'd (copy.h's results, key-value lists): read as
   TesseraCsArray like tessera_swig_int64s, copied, then freed; data NULL with
   size > 0 is the wrapper out of memory, with size 0 a failed call (empty). */
%typemap(ctype)  tessera_swig_bytes "$1_ltype"
%typemap(imtype) tessera_swig_bytes "TesseraCsArray"
%typemap(cstype) tessera_swig_bytes "byte[]"
%typemap(out)    tessera_swig_bytes %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) tessera_swig_bytes {
    TesseraCsArray array = $imcall;
    byte[] bytes = null;
    try {
      if (array.data != global::System.IntPtr.Zero) bytes = $imclassname.CopyBytes(array);
    } finally {
      if (array.data != global::System.IntPtr.Zero) $imclassname.TesseraCsFree(array.data);
    }$excode
    if (bytes == null && array.size == 0) bytes = new byte[0];
    if (bytes == null) throw new global::System.OutOfMemoryException("the binding could not allocate a byte array");
    return bytes;
  }

/* Sharding.Scatter and Gather (src/Sharding.cs) split and join the one
   concatenated array these pass. */
%csmethodmodifiers Sharding::scatter_concat "internal";
%csmethodmodifiers Sharding::gather_concat "internal";

/* ---- strings ------------------------------------------------------------ */

/* String arguments: encoded to a NUL-terminated UTF-8 byte[] in C# and passed
   pinned (no copy, no native allocation): cheaper than the runtime's string
   marshaller, and UTF-8 whatever the runtime's default. null stays NULL.
   Results come back through SWIG's string callback, decoded as UTF-8. */
%typemap(imtype, out="string",
         outattributes="[return: global::System.Runtime.InteropServices.MarshalAs(global::System.Runtime.InteropServices.UnmanagedType.LPUTF8Str)]") char *, const char * "byte[]"
%typemap(csin) char *, const char * "global::Tessera.TesseraUtf8.Encode($csinput)"

/* A method may share its name with a class (Layout.Mesh() returns a Mesh):
   inside Layout, "Mesh.getCPtr" would name the method, so the type is
   written in full. */
%typemap(csin) SWIGTYPE *, SWIGTYPE &, SWIGTYPE [] "global::Tessera.$csclassname.getCPtr($csinput)"

/* ---- proxy classes ------------------------------------------------------ */

/* Hand-written members (properties, ToString, operators) go in partial
   classes under bindings/csharp/src, as OR-Tools does. */
%typemap(csclassmodifiers) SWIGTYPE "public partial class"

/* SafeHandle-style finalization: critical finalizer, release exactly once
   whichever of Dispose() and the finalizer thread gets there first, and never
   an exception from the finalizer. tessera_*_destroy may run on any thread
   (tessera.h), the GC's finalizer thread included. */
%typemap(csbase) SWIGTYPE "global::System.Runtime.ConstrainedExecution.CriticalFinalizerObject"
%typemap(csdisposing, methodname="Dispose", methodmodifiers="protected", parameters="bool disposing") SWIGTYPE {
    if (disposing) CheckDisposable();
    if (global::System.Threading.Interlocked.Exchange(ref swigReleased, 1) != 0) return;
    bool release = true;
    OnDisposing(disposing, ref release);
    if (release && swigCPtr.Handle != global::System.IntPtr.Zero && swigCMemOwn) {
      swigCMemOwn = false;
      $imcall;
    }
    swigCPtr = new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
  }
%typemap(cscode) SWIGTYPE %{
  private int swigReleased;

  /* Dispose() (not the finalizer) first asks whether it may release the
     handle now: Client refuses from its own event callback. */
  partial void CheckDisposable();

  /* Runs once, before the native handle is released (Client removes its
     event callback first); it may leave the handle to the ending process
     (release = false: Client's finalizer once shutdown has started). */
  partial void OnDisposing(bool disposing, ref bool release);

  /** True once Dispose() (or the finalizer) has released the native handle. */
  public bool IsDisposed { get { return global::System.Threading.Volatile.Read(ref swigReleased) != 0; } }
%}

/* ---- names -------------------------------------------------------------- */

/* Methods are snake_case in ../tessera.i: PascalCase in C#, as OR-Tools'
   C# files do. */
%rename("%(camelcase)s", %$isfunction) "";

/* to_string is Keras's repr: C#'s ToString(). */
%csmethodmodifiers Mesh::to_string "public override";
%csmethodmodifiers Layout::to_string "public override";
%csmethodmodifiers Distribution::to_string "public override";

/* Enum items are the C name's suffix after the enum's own prefix, in
   PascalCase (Code.InvalidArgument, ShardMode.Strict; Java spells the same
   suffix in UPPER_SNAKE: ShardMode.STRICT). Listed by hand from the headers:
   an item added later keeps its C name until it is added here. */
/* SWIG puts a C enum's items in the global scope, where ShardMode.Strict and
   ShapeCheck.Strict would collide (warning 302, the second dropped). Seen as
   scoped enums, each enum's items get their own scope; the wrapper code is
   unchanged (it only casts ints to the typedef'd enum types). */
#define enum enum struct
/* tessera_event_kind_t */
%rename(TaskChanged) TESSERA_EVENT_TASK_CHANGED;
%rename(JobError) TESSERA_EVENT_JOB_ERROR;
%rename(ShutdownStarted) TESSERA_EVENT_SHUTDOWN_STARTED;
%rename(TopologyChanged) TESSERA_EVENT_TOPOLOGY_CHANGED;
%rename(CoordinatorLost) TESSERA_EVENT_COORDINATOR_LOST;
/* tessera_task_state_t */
%rename(NeverConnected) TESSERA_TASK_NEVER_CONNECTED;
%rename(Pending) TESSERA_TASK_PENDING;
%rename(Running) TESSERA_TASK_RUNNING;
%rename(Disconnected) TESSERA_TASK_DISCONNECTED;
%rename(Failed) TESSERA_TASK_FAILED;
/* tessera_error_reason_t */
%rename(None) TESSERA_REASON_NONE;
%rename(JobFailed) TESSERA_REASON_JOB_FAILED;
%rename(CoordinatorLost) TESSERA_REASON_COORDINATOR_LOST;
%rename(BarrierFailed) TESSERA_REASON_BARRIER_FAILED;
%rename(DuplicateProcess) TESSERA_REASON_DUPLICATE_PROCESS;
%rename(Superseded) TESSERA_REASON_SUPERSEDED;
%rename(WrongJob) TESSERA_REASON_WRONG_JOB;
%rename(Authentication) TESSERA_REASON_AUTHENTICATION;
%rename(NeverConnected) TESSERA_REASON_NEVER_CONNECTED;
/* tessera_platform_t */
%rename(Cpu) TESSERA_PLATFORM_CPU;
%rename(Gpu) TESSERA_PLATFORM_GPU;
%rename(Tpu) TESSERA_PLATFORM_TPU;
/* tessera_distribution_kind_t */
%rename(DataParallel) TESSERA_DISTRIBUTION_DATA_PARALLEL;
%rename(ModelParallel) TESSERA_DISTRIBUTION_MODEL_PARALLEL;
/* tessera_dataset_mode_t */
%rename(Current) TESSERA_DATASET_MODE_CURRENT;
%rename(Keras30) TESSERA_DATASET_MODE_KERAS_3_0;
/* tessera_dataset_plan_kind_t */
%rename(Passthrough) TESSERA_DATASET_PLAN_PASSTHROUGH;
%rename(Replicate) TESSERA_DATASET_PLAN_REPLICATE;
%rename(Shard) TESSERA_DATASET_PLAN_SHARD;
/* tessera_dtensor_mesh_kind_t */
%rename(Empty) TESSERA_DTENSOR_MESH_EMPTY;
%rename(Tile) TESSERA_DTENSOR_MESH_TILE;
%rename(SingleDevice) TESSERA_DTENSOR_MESH_SINGLE_DEVICE;
/* tessera_code_t */
%rename(Ok) TESSERA_OK;
%rename(Cancelled) TESSERA_CANCELLED;
%rename(Unknown) TESSERA_UNKNOWN;
%rename(InvalidArgument) TESSERA_INVALID_ARGUMENT;
%rename(DeadlineExceeded) TESSERA_DEADLINE_EXCEEDED;
%rename(NotFound) TESSERA_NOT_FOUND;
%rename(AlreadyExists) TESSERA_ALREADY_EXISTS;
%rename(PermissionDenied) TESSERA_PERMISSION_DENIED;
%rename(ResourceExhausted) TESSERA_RESOURCE_EXHAUSTED;
%rename(FailedPrecondition) TESSERA_FAILED_PRECONDITION;
%rename(Aborted) TESSERA_ABORTED;
%rename(OutOfRange) TESSERA_OUT_OF_RANGE;
%rename(Unimplemented) TESSERA_UNIMPLEMENTED;
%rename(Internal) TESSERA_INTERNAL;
%rename(Unavailable) TESSERA_UNAVAILABLE;
%rename(DataLoss) TESSERA_DATA_LOSS;
%rename(Unauthenticated) TESSERA_UNAUTHENTICATED;
/* tessera_shape_check_t */
%rename(Strict) TESSERA_SHAPE_CHECK_STRICT;
%rename(Chunk) TESSERA_SHAPE_CHECK_CHUNK;
/* tessera_key_match_t */
%rename(Search) TESSERA_KEY_MATCH_SEARCH;
%rename(Full) TESSERA_KEY_MATCH_FULL;
/* tessera_log_level_t */
%rename(Debug) TESSERA_LOG_DEBUG;
%rename(Info) TESSERA_LOG_INFO;
%rename(Warning) TESSERA_LOG_WARNING;
%rename(Error) TESSERA_LOG_ERROR;
/* tessera_transfer_locality_t */
%rename(SameDevice) TESSERA_TRANSFER_SAME_DEVICE;
%rename(SameProcess) TESSERA_TRANSFER_SAME_PROCESS;
%rename(CrossProcess) TESSERA_TRANSFER_CROSS_PROCESS;
/* tessera_shard_mode_t */
%rename(Strict) TESSERA_SHARD_MODE_STRICT;
%rename(ChunkFlat) TESSERA_SHARD_MODE_CHUNK_FLAT;
%rename(ChunkNested) TESSERA_SHARD_MODE_CHUNK_NESTED;

/* ---- accessors as properties -------------------------------------------- */

/* Each accessor is an internal Get<Name>() under a property <Name> in
   src/Accessors.cs (mesh.NumDevices, layout.NumDims): properties need a
   hand-written doc comment anyway, and a partial class keeps working whatever
   hidden arguments (out_error) the common method gains. */
%define TESSERA_CS_PROPERTY(CLASS, METHOD, INTERNAL)
%csmethodmodifiers CLASS::METHOD "internal";
%rename(INTERNAL) CLASS::METHOD;
%enddef
TESSERA_CS_PROPERTY(Device, id, GetId)
TESSERA_CS_PROPERTY(Device, platform, GetPlatform)
TESSERA_CS_PROPERTY(Device, process_index, GetProcessIndex)
TESSERA_CS_PROPERTY(Device, local_ordinal, GetLocalOrdinal)
TESSERA_CS_PROPERTY(Device, name, GetName)
TESSERA_CS_PROPERTY(Device, has_coords, GetHasCoords)
TESSERA_CS_PROPERTY(Device, core_on_chip, GetCoreOnChip)
TESSERA_CS_PROPERTY(DeviceList, size, GetNumDevices)
TESSERA_CS_PROPERTY(LocalDevices, size, GetNumDevices)
TESSERA_CS_PROPERTY(LocalDevices, provider, GetProvider)
TESSERA_CS_PROPERTY(LocalDevices, nvml_unavailable_reason, GetNvmlUnavailableReason)
TESSERA_CS_PROPERTY(Mesh, rank, GetNumAxes)
TESSERA_CS_PROPERTY(Mesh, size, GetNumDevices)
TESSERA_CS_PROPERTY(Mesh, platform, GetPlatform)
TESSERA_CS_PROPERTY(Layout, rank, GetNumDims)
TESSERA_CS_PROPERTY(LayoutMap, size, GetNumRules)
TESSERA_CS_PROPERTY(LayoutMap, match, GetMatch)
TESSERA_CS_PROPERTY(Distribution, kind, GetKind)
TESSERA_CS_PROPERTY(Distribution, batch_dim_name, GetBatchDimName)
TESSERA_CS_PROPERTY(Distribution, num_processes, GetNumProcesses)
TESSERA_CS_PROPERTY(Distribution, process_index, GetProcessIndex)
TESSERA_CS_PROPERTY(Distribution, num_model_replicas, GetNumModelReplicas)
TESSERA_CS_PROPERTY(Distribution, num_data_shards, GetNumDataShards)
TESSERA_CS_PROPERTY(Distribution, data_shard_id, GetDataShardId)
TESSERA_CS_PROPERTY(DatasetPlan, kind, GetKind)
TESSERA_CS_PROPERTY(DatasetPlan, global_batch_size, GetGlobalBatchSize)
TESSERA_CS_PROPERTY(DatasetPlan, per_process_batch_size, GetPerProcessBatchSize)
TESSERA_CS_PROPERTY(DatasetPlan, num_shards, GetNumShards)
TESSERA_CS_PROPERTY(DatasetPlan, shard_index, GetShardIndex)
TESSERA_CS_PROPERTY(DatasetPlan, num_rebatch_sizes, GetNumRebatchSizes)
TESSERA_CS_PROPERTY(Sharding, rank, GetNumDims)
TESSERA_CS_PROPERTY(Sharding, num_devices, GetNumDevices)
TESSERA_CS_PROPERTY(ReshardPlan, num_transfers, GetNumTransfers)
TESSERA_CS_PROPERTY(ReshardPlan, rank, GetNumDims)
TESSERA_CS_PROPERTY(DTensorMesh, kind, GetKind)
TESSERA_CS_PROPERTY(DTensorMesh, name, GetName)
TESSERA_CS_PROPERTY(DTensorMesh, device_type, GetDeviceType)
TESSERA_CS_PROPERTY(DTensorMesh, single_device, GetSingleDevice)
TESSERA_CS_PROPERTY(DTensorMesh, use_xla_spmd, GetUseXlaSpmd)
TESSERA_CS_PROPERTY(DTensorMesh, rank, GetNumDims)
TESSERA_CS_PROPERTY(DTensorMesh, num_global_ids, GetNumGlobalIds)
TESSERA_CS_PROPERTY(DTensorMesh, num_local_ids, GetNumLocalIds)
TESSERA_CS_PROPERTY(DTensorMesh, num_global_devices, GetNumGlobalDevices)
TESSERA_CS_PROPERTY(Detection, source, GetSource)
TESSERA_CS_PROPERTY(Detection, coordinator_address, GetCoordinatorAddress)
TESSERA_CS_PROPERTY(Detection, bind_address, GetBindAddress)
TESSERA_CS_PROPERTY(Detection, num_processes, GetNumProcesses)
TESSERA_CS_PROPERTY(Detection, process_index, GetProcessIndex)
TESSERA_CS_PROPERTY(Detection, job_id, GetJobId)
TESSERA_CS_PROPERTY(Detection, local_device_id_count, GetNumLocalDeviceIds)
TESSERA_CS_PROPERTY(Detection, explanation, GetExplanation)
TESSERA_CS_PROPERTY(Client, process_index, GetProcessIndex)
TESSERA_CS_PROPERTY(Client, num_processes, GetNumProcesses)
TESSERA_CS_PROPERTY(Client, topology_fingerprint, GetTopologyFingerprint)
TESSERA_CS_PROPERTY(Client, topology_generation, GetTopologyGeneration)
TESSERA_CS_PROPERTY(Client, coordinator_address, GetCoordinatorAddress)
TESSERA_CS_PROPERTY(Event, kind, GetKind)
TESSERA_CS_PROPERTY(Event, process_index, GetProcessIndex)
TESSERA_CS_PROPERTY(Event, task_state, GetTaskState)
TESSERA_CS_PROPERTY(Event, code, GetCode)
TESSERA_CS_PROPERTY(Event, message, GetMessage)
TESSERA_CS_PROPERTY(Event, generation, GetGeneration)
TESSERA_CS_PROPERTY(Event, version, GetVersion)
TESSERA_CS_PROPERTY(KvList, size, GetNumEntries)
TESSERA_CS_PROPERTY(Coordinator, port, GetPort)

/* ---- durations ---------------------------------------------------------- */

/* Every timeout and interval is a System.TimeSpan (whole milliseconds for C;
   a negative one passes through, so the library refuses it by name). */
%typemap(cstype) int64_t timeout_ms, int64_t interval_ms "global::System.TimeSpan"
%typemap(csin) int64_t timeout_ms, int64_t interval_ms "$csinput.Ticks / global::System.TimeSpan.TicksPerMillisecond"
%rename(SetTlsReloadInterval) ClusterOptions::set_tls_reload_interval_ms;
%rename(SetInitTimeout) ClusterOptions::set_init_timeout_ms;
%rename(SetShutdownTimeout) ClusterOptions::set_shutdown_timeout_ms;
%rename(SetRpcTimeout) ClusterOptions::set_rpc_timeout_ms;
%typemap(cstype) int64_t handshake_timeout_ms, int64_t idle_timeout_ms "global::System.TimeSpan"
%typemap(csin) int64_t handshake_timeout_ms, int64_t idle_timeout_ms "$csinput.Ticks / global::System.TimeSpan.TicksPerMillisecond"
%rename(SetConnectionTimeouts) ClusterOptions::set_connection_timeouts;

/* ---- equality ----------------------------------------------------------- */

/* Equals, GetHashCode, == and != (src/Equality.cs) over the C comparison. */
%csmethodmodifiers Mesh::is_equal "internal";
%csmethodmodifiers Layout::is_equal "internal";

/* ---- documentation ------------------------------------------------------ */

/* Tessera.xml documents the hand-written API with CS1591 (a public member
   without a comment) an error; SWIG writes no comments, so the generated
   classes switch it off for themselves. */
%typemap(csimports) SWIGTYPE %{
#pragma warning disable 1591
using global::System;
using global::System.Runtime.InteropServices;
%}
%typemap(csimports) enum SWIGTYPE %{
#pragma warning disable 1591
%}
%pragma(csharp) moduleimports=%{
#pragma warning disable 1591
using global::System;
using global::System.Runtime.InteropServices;
%}

/* ---- events ------------------------------------------------------------ */

/* After the names above, so that it is renamed as the rest. */
#if !defined(TESSERA_SWIG_NO_CLUSTER)
/* Client.SetEventCallback's native half (src/Client.cs is the API): `key` is
   a GCHandle of the C# callback, 0 removes it. Returns once a callback of
   this client that is running has finished (the C API waits for it). */
%csmethodmodifiers Client::set_event_callback_key "internal";
%extend Client {
  void set_event_callback_key(int64_t key, tessera_error** out_error) {
    tessera_client_set_event_callback($self, key != 0 ? tessera_cs_on_event : NULL,
                                      (void*)(intptr_t)key, out_error);
  }
}
#endif

/* ---- Experimental: DTensor layouts, config and mesh queries (issue 11) ---- */

/* tessera_dtensor_layout_type_t */
%rename(Empty) TESSERA_DTENSOR_LAYOUT_EMPTY;
%rename(Static) TESSERA_DTENSOR_LAYOUT_STATIC;
%rename(Parted) TESSERA_DTENSOR_LAYOUT_PARTED;
%rename(SingleDevice) TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE;
TESSERA_CS_PROPERTY(DTensorLayout, type, GetLayoutType)
TESSERA_CS_PROPERTY(DTensorLayout, rank, GetNumDims)
TESSERA_CS_PROPERTY(DTensorMesh, num_hosts, GetNumHosts)
TESSERA_CS_PROPERTY(DTensorConfig, heartbeat_enabled, GetHeartbeatEnabled)
TESSERA_CS_PROPERTY(DTensorConfig, accelerators_initialized, GetAcceleratorsInitialized)
/* src/DTensor.cs: Equals and ==, layouts lists and local shapes as C# arrays. */
%csmethodmodifiers DTensorLayout::is_equal "internal";
%csmethodmodifiers DTensorMesh::is_equal "internal";
%csmethodmodifiers DTensorLayout::most_sharded_of "internal";
%csmethodmodifiers DTensorLayout::least_sharded_of "internal";
%csmethodmodifiers DTensorLayout::global_shape_from_local "internal";
%rename(GlobalShapeFromLocalFlat) DTensorLayout::global_shape_from_local;

/* ---- issue 12: loading into pinned managed memory -------------------------- */

/* The buffers arrive as addresses and sizes that src/Load.cs pinned
   (PinnedBuffers: GCHandle per byte[], MemoryHandle per Memory<byte>) for
   the call; both arrays are blittable (pinned by P/Invoke), long is size_t's
   width on the LP64 platforms Tessera builds for. */
%typemap(ctype)  (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "void** arr$argnum, int64_t* sizes$argnum, int64_t"
%typemap(imtype) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "global::System.IntPtr[] arr$argnum, long[] sizes$argnum, long"
%typemap(cstype) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "global::Tessera.PinnedBuffers"
%typemap(csin)   (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "$csinput.Addresses, $csinput.Sizes, $csinput.Addresses.LongLength"
%typemap(in) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) %{
  $1 = ($1_ltype)arr$argnum;
  $2 = ($2_ltype)(void*)sizes$argnum;
  $3 = ($3_ltype)$input;
%}
/* src/Load.cs: Execute(byte[][]) and Execute(Memory<byte>[]) pin, then call this. */
%csmethodmodifiers ReadPlan::execute "internal";
%rename(ExecutePinned) ReadPlan::execute;
/* src/Save.cs collects the shards, pins them and calls this. */
%csmethodmodifiers CheckpointSaver::write_shards "internal";
%rename(WriteShardsPinned) CheckpointSaver::write_shards;

/* The callback forms: two static C# delegates (src/Load.cs, registered once)
   behind C trampolines that pass the load's GCHandle as user_data; through
   the same door as the other callbacks ("native callbacks" above), so a
   loader thread enters Mono only while the process is not exiting, and
   leaves it detached again. */
%{
typedef int (SWIGSTDCALL* TesseraCsPieceFn)(void* user_data, int64_t piece, int64_t offset, const void* bytes,
                                            int64_t size);
typedef int (SWIGSTDCALL* TesseraCsProgressFn)(void* user_data, int64_t bytes_done, int64_t bytes_total);
static TesseraCsPieceFn volatile tessera_cs_piece_fn = NULL;
static TesseraCsProgressFn volatile tessera_cs_progress_fn = NULL;
SWIGEXPORT void SWIGSTDCALL TesseraCsSetLoadCallbacks(TesseraCsPieceFn piece, TesseraCsProgressFn progress) {
  __atomic_store_n(&tessera_cs_piece_fn, piece, __ATOMIC_SEQ_CST);
  __atomic_store_n(&tessera_cs_progress_fn, progress, __ATOMIC_SEQ_CST);
}
static bool tessera_cs_on_piece(size_t piece, int64_t offset, const void* bytes, size_t size, void* user_data) {
  TesseraCsPieceFn fn;
  int keep_going = 0;
  if (!tessera_cs_begin()) return false;
  fn = __atomic_load_n(&tessera_cs_piece_fn, __ATOMIC_SEQ_CST);
  if (fn != NULL) {
    int detach = tessera_cs_enter();
    keep_going = fn(user_data, (int64_t)piece, offset, bytes, (int64_t)size);
    tessera_cs_leave(detach);
  }
  tessera_cs_end();
  return keep_going != 0;
}
static bool tessera_cs_on_progress(int64_t bytes_done, int64_t bytes_total, void* user_data) {
  TesseraCsProgressFn fn;
  int keep_going = 0;
  if (!tessera_cs_begin()) return false;
  fn = __atomic_load_n(&tessera_cs_progress_fn, __ATOMIC_SEQ_CST);
  if (fn != NULL) {
    int detach = tessera_cs_enter();
    keep_going = fn(user_data, bytes_done, bytes_total);
    tessera_cs_leave(detach);
  }
  tessera_cs_end();
  return keep_going != 0;
}
%}
%pragma(csharp) imclasscode=%{
  [DllImport("$dllimport", EntryPoint="TesseraCsSetLoadCallbacks")]
  internal static extern void TesseraCsSetLoadCallbacks(LoadCallbacks.PieceFn piece, LoadCallbacks.ProgressFn progress);
%}
%csmethodmodifiers ReadPlan::execute_progress "internal";
%csmethodmodifiers ReadPlan::stream_key "internal";
%rename(ExecuteProgressPinned) ReadPlan::execute_progress;
%rename(StreamKey) ReadPlan::stream_key;
%extend ReadPlan {
  /* tessera_read_plan_execute with progress to the load of GCHandle `key`. */
  int64_t execute_progress(int64_t key, void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES,
                           size_t TESSERA_BUFFERS_OUT_COUNT, tessera_error** out_error) {
    int64_t bytes_read = 0;
    tessera_read_plan_execute($self, TESSERA_BUFFERS_OUT, TESSERA_BUFFERS_OUT_SIZES, TESSERA_BUFFERS_OUT_COUNT,
                              tessera_cs_on_progress, (void*)(intptr_t)key, &bytes_read, out_error);
    return bytes_read;
  }
  /* tessera_read_plan_stream to the load of GCHandle `key` (progress: whether to report it). */
  int64_t stream_key(int64_t key, bool progress, tessera_error** out_error) {
    int64_t bytes_read = 0;
    tessera_read_plan_stream($self, tessera_cs_on_piece, (void*)(intptr_t)key,
                                       progress ? tessera_cs_on_progress : NULL, (void*)(intptr_t)key,
                                       &bytes_read, out_error);
    return bytes_read;
  }
}

/* ---- issue 12: checkpoint memory plans ------------------------------------ */

/* tessera_plan_recipe_t */
%rename(Inference) TESSERA_PLAN_RECIPE_INFERENCE;
%rename(Training) TESSERA_PLAN_RECIPE_TRAINING;
/* tessera_plan_term_t */
%rename(Weights) TESSERA_PLAN_TERM_WEIGHTS;
%rename(KvCache) TESSERA_PLAN_TERM_KV_CACHE;
%rename(Gradients) TESSERA_PLAN_TERM_GRADIENTS;
%rename(OptimizerState) TESSERA_PLAN_TERM_OPTIMIZER_STATE;
%rename(MasterWeights) TESSERA_PLAN_TERM_MASTER_WEIGHTS;
/* tessera_plan_verdict_t */
%rename(Unknown) TESSERA_PLAN_VERDICT_UNKNOWN;
%rename(Fits) TESSERA_PLAN_VERDICT_FITS;
%rename(DoesNotFit) TESSERA_PLAN_VERDICT_DOES_NOT_FIT;
/* src/CheckpointPlan.cs: Search takes LayoutMap objects and passes their addresses. */
%csmethodmodifiers CheckpointPlan::search_of "internal";

/* ---- issue 13: saving from a fill callback ------------------------------- */

/* CheckpointSaver.Stream (src/Save.cs): one static C# delegate (registered
   once) behind a C trampoline that passes the save's GCHandle as user_data,
   through the same door as the loader's callbacks. The saver calls it on the
   thread that called Stream. */
%{
typedef int (SWIGSTDCALL* TesseraCsFillFn)(void* user_data, int64_t tensor, int64_t device, const int64_t* ranges,
                                           int64_t num_ranges, int64_t offset, void* out, int64_t size);
static TesseraCsFillFn volatile tessera_cs_fill_fn = NULL;
SWIGEXPORT void SWIGSTDCALL TesseraCsSetSaveCallback(TesseraCsFillFn fill) {
  __atomic_store_n(&tessera_cs_fill_fn, fill, __ATOMIC_SEQ_CST);
}
static bool tessera_cs_on_fill(size_t tensor, size_t device, const int64_t* ranges, size_t num_ranges,
                               int64_t offset, void* out, size_t size, void* user_data) {
  TesseraCsFillFn fn;
  int keep_going = 0;
  if (!tessera_cs_begin()) return false;
  fn = __atomic_load_n(&tessera_cs_fill_fn, __ATOMIC_SEQ_CST);
  if (fn != NULL) {
    int detach = tessera_cs_enter();
    keep_going = fn(user_data, (int64_t)tensor, (int64_t)device, ranges, (int64_t)num_ranges, offset, out,
                    (int64_t)size);
    tessera_cs_leave(detach);
  }
  tessera_cs_end();
  return keep_going != 0;
}
%}
%pragma(csharp) imclasscode=%{
  [DllImport("$dllimport", EntryPoint="TesseraCsSetSaveCallback")]
  internal static extern void TesseraCsSetSaveCallback(SaveCallbacks.FillFn fill);
%}
%csmethodmodifiers CheckpointSaver::stream_key "internal";
%rename(StreamKey) CheckpointSaver::stream_key;
%extend CheckpointSaver {
  /* tessera_checkpoint_saver_stream, filled by the save of GCHandle `key`. */
  void stream_key(int64_t key, tessera_error** out_error) {
    tessera_checkpoint_saver_stream($self, tessera_cs_on_fill, (void*)(intptr_t)key, out_error);
  }
}
