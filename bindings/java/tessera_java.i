/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Java specifics of tessera.i (included before the common part).
 *
 *   - package org.tessera (set on the swig command line: -package org.tessera);
 *     the generated module class `tessera` and JNI class `tesseraJNI` are
 *     package-private; the public facade is the hand-written Tessera class.
 *   - methods lowerCamelCase (Mesh.axisName), enums as Java enums with the
 *     C prefix dropped (Code.INVALID_ARGUMENT, ShardMode.CHUNK_FLAT).
 *   - errors: TesseraException (unchecked) with its Code, thrown from C
 *     through TESSERA_SWIG_RAISE.
 *   - every handle is AutoCloseable; a java.lang.ref.Cleaner destroys the
 *     ones never closed (no finalize()).
 *   - strings cross as UTF-8 byte arrays (JNI's "modified UTF-8" would mangle
 *     characters outside the BMP and NUL).
 *   - Client.setEventListener: events reach Java on the library's thread
 *     through a JNI trampoline.
 *   - Tessera.setLogHandler: log messages reach Java on the thread that logs
 *     (library threads attach as daemons); a shutdown hook stops them from
 *     entering the JVM once it is going away.
 *   - Sharding.scatter/gather: byte[][] shards over the common part's
 *     concatenated scatter_concat/gather_concat (private here).
 */

%include <enums.swg>
%javaconst(1);

%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
    // An Error, not an exception: it reaches the caller as is, naming both versions.
    byte[] problem = binding_version_problem(version());
    if (problem != null) {
      throw new UnsatisfiedLinkError(new String(problem, java.nio.charset.StandardCharsets.UTF_8));
    }
  }
%}

/* ---- Names ----------------------------------------------------------------- */

%rename("%(lowercamelcase)s", %$isfunction, %$ismember, %$not %$isconstructor, %$not %$isdestructor) "";
/*
 * Enum items are the C name's suffix after the enum's own prefix, in C's
 * UPPER_SNAKE case: ShardMode.STRICT, ShapeCheck.STRICT, Code.INVALID_ARGUMENT
 * (C# spells the same suffix in PascalCase: ShardMode.Strict).
 */
%rename("%(strip:[TESSERA_])s", %$isenumitem) "";
%rename("%(strip:[TESSERA_LOG_])s", %$isenumitem, match$parentNode$name="tessera_log_level_t") "";
%rename("%(strip:[TESSERA_PLATFORM_])s", %$isenumitem, match$parentNode$name="tessera_platform_t") "";
%rename("%(strip:[TESSERA_SHAPE_CHECK_])s", %$isenumitem, match$parentNode$name="tessera_shape_check_t") "";
%rename("%(strip:[TESSERA_KEY_MATCH_])s", %$isenumitem, match$parentNode$name="tessera_key_match_t") "";
%rename("%(strip:[TESSERA_DISTRIBUTION_])s", %$isenumitem, match$parentNode$name="tessera_distribution_kind_t") "";
%rename("%(strip:[TESSERA_DATASET_MODE_])s", %$isenumitem, match$parentNode$name="tessera_dataset_mode_t") "";
%rename("%(strip:[TESSERA_DATASET_PLAN_])s", %$isenumitem, match$parentNode$name="tessera_dataset_plan_kind_t") "";
%rename("%(strip:[TESSERA_SHARD_MODE_])s", %$isenumitem, match$parentNode$name="tessera_shard_mode_t") "";
%rename("%(strip:[TESSERA_TRANSFER_])s", %$isenumitem, match$parentNode$name="tessera_transfer_locality_t") "";
%rename("%(strip:[TESSERA_DTENSOR_MESH_])s", %$isenumitem, match$parentNode$name="tessera_dtensor_mesh_kind_t") "";
%rename("%(strip:[TESSERA_EVENT_])s", %$isenumitem, match$parentNode$name="tessera_event_kind_t") "";
%rename("%(strip:[TESSERA_TASK_])s", %$isenumitem, match$parentNode$name="tessera_task_state_t") "";
%rename("%(strip:[TESSERA_REASON_])s", %$isenumitem, match$parentNode$name="tessera_error_reason_t") "";
/*
 * SWIG puts a C enum's items in the global scope, where ShardMode.STRICT and
 * ShapeCheck.STRICT would collide (warning 302, the second dropped). Seen as
 * scoped enums, each enum's items get their own scope; the wrapper code is
 * unchanged (it only casts ints to the typedef'd enum types).
 */
#define enum enum struct

/* ---- SWIG internals stay in the package ------------------------------------ */

/* enums.swg's body with swigValue/swigToEnum package-private: the JNI glue
 * needs them, callers use the constants (and ordinal/valueOf). */
%typemap(javabody) enum SWIGTYPE %{
  final int swigValue() {
    return swigValue;
  }

  static $javaclassname swigToEnum(int swigValue) {
    $javaclassname[] swigValues = $javaclassname.class.getEnumConstants();
    if (swigValue < swigValues.length && swigValue >= 0 && swigValues[swigValue].swigValue == swigValue)
      return swigValues[swigValue];
    for ($javaclassname swigEnum : swigValues)
      if (swigEnum.swigValue == swigValue)
        return swigEnum;
    throw new IllegalArgumentException("No enum " + $javaclassname.class + " with value " + swigValue);
  }

  @SuppressWarnings("unused")
  private $javaclassname() {
    this.swigValue = SwigNext.next++;
  }

  @SuppressWarnings("unused")
  private $javaclassname(int swigValue) {
    this.swigValue = swigValue;
    SwigNext.next = swigValue+1;
  }

  @SuppressWarnings("unused")
  private $javaclassname($javaclassname swigEnum) {
    this.swigValue = swigEnum.swigValue;
    SwigNext.next = this.swigValue+1;
  }

  private final int swigValue;

  private static class SwigNext {
    private static int next = 0;
  }
%}

/* ---- Errors ---------------------------------------------------------------- */

%{
#include <pthread.h>
#include <time.h>

/* A Java byte[] holding `size` bytes at `data` (NULL data: null). */
static jbyteArray tessera_java_bytes(JNIEnv* jenv, const void* data, size_t size) {
  jbyteArray array;
  if (data == NULL) return NULL;
  if (size > 0x7fffffff) {
    SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "more than 2 GiB for a Java array");
    return NULL;
  }
  array = (*jenv)->NewByteArray(jenv, (jsize)size);
  if (array != NULL && size > 0) {
    (*jenv)->SetByteArrayRegion(jenv, array, 0, (jsize)size, (const jbyte*)data);
  }
  return array;
}

static jbyteArray tessera_java_cstring(JNIEnv* jenv, const char* text) {
  return text == NULL ? NULL : tessera_java_bytes(jenv, text, strlen(text));
}

/* The ids of the processes a cluster error says had arrived (or, with
 * arrived 0, were missing); NULL when none. */
static jlongArray tessera_java_processes(JNIEnv* jenv, const tessera_error* error, int arrived) {
  size_t n = arrived ? tessera_error_num_arrived(error, NULL) : tessera_error_num_missing(error, NULL);
  size_t i;
  jlongArray ids;
  if (n == 0 || n > 0x7fffffff) return NULL;
  ids = (*jenv)->NewLongArray(jenv, (jsize)n);
  for (i = 0; ids != NULL && i < n; ++i) {
    jlong id = (jlong)(arrived ? tessera_error_arrived_process(error, i, NULL)
                               : tessera_error_missing_process(error, i, NULL));
    (*jenv)->SetLongArrayRegion(jenv, ids, (jsize)i, 1, &id);
  }
  return ids;
}

/* Each missing process's tessera_task_state_t (NULL when none are missing). */
static jintArray tessera_java_missing_states(JNIEnv* jenv, const tessera_error* error) {
  size_t n = tessera_error_num_missing(error, NULL), i;
  jintArray states;
  if (n == 0 || n > 0x7fffffff) return NULL;
  states = (*jenv)->NewIntArray(jenv, (jsize)n);
  for (i = 0; states != NULL && i < n; ++i) {
    jint state = (jint)tessera_error_missing_state(error, i, NULL);
    (*jenv)->SetIntArrayRegion(jenv, states, (jsize)i, 1, &state);
  }
  return states;
}

/* Each missing process's barrier ("id#counter", "" when none) as UTF-8. */
static jobjectArray tessera_java_missing_waiting_at(JNIEnv* jenv, const tessera_error* error) {
  size_t n = tessera_error_num_missing(error, NULL), i;
  jclass bytes_class;
  jobjectArray all;
  if (n == 0 || n > 0x7fffffff) return NULL;
  bytes_class = (*jenv)->FindClass(jenv, "[B");
  if (bytes_class == NULL) return NULL;
  all = (*jenv)->NewObjectArray(jenv, (jsize)n, bytes_class, NULL);
  (*jenv)->DeleteLocalRef(jenv, bytes_class);
  for (i = 0; all != NULL && i < n; ++i) {
    jbyteArray text = tessera_java_cstring(jenv, tessera_error_missing_waiting_at(error, i, NULL));
    if (text == NULL) return NULL;
    (*jenv)->SetObjectArrayElement(jenv, all, (jsize)i, text);
    (*jenv)->DeleteLocalRef(jenv, text);
  }
  return all;
}

/*
 * Throws TesseraException.fromNative(code, utf8 message, reason, source
 * process, missing processes with their states and barriers, arrived
 * processes) and frees `error`.
 */
static void tessera_java_raise(JNIEnv* jenv, tessera_error* error) {
  static jclass exception_class = NULL;
  static jmethodID from_native = NULL;
  jbyteArray message;
  jlongArray missing, arrived;
  jintArray states;
  jobjectArray waiting_at;
  jthrowable exception;
  if ((*jenv)->ExceptionCheck(jenv)) {
    /* An earlier exception (out of memory converting a result) stands. */
    tessera_error_destroy(error);
    return;
  }
  if (exception_class == NULL) {
    jclass local = (*jenv)->FindClass(jenv, "org/tessera/TesseraException");
    if (local == NULL) {
      tessera_error_destroy(error);
      return;
    }
    from_native = (*jenv)->GetStaticMethodID(
        jenv, local, "fromNative", "(I[BIJ[J[I[[B[J)Lorg/tessera/TesseraException;");
    /* Cached only with its method: a jar that does not match this library
     * throws NoSuchMethodError on every error instead of calling NULL. */
    if (from_native != NULL) exception_class = (jclass)(*jenv)->NewGlobalRef(jenv, local);
    (*jenv)->DeleteLocalRef(jenv, local);
    if (exception_class == NULL) {
      tessera_error_destroy(error);
      return;
    }
  }
  message = tessera_java_cstring(jenv, tessera_error_message(error));
  missing = tessera_java_processes(jenv, error, 0);
  states = tessera_java_missing_states(jenv, error);
  waiting_at = tessera_java_missing_waiting_at(jenv, error);
  arrived = tessera_java_processes(jenv, error, 1);
  /* Out of memory building the details: that OutOfMemoryError is what is thrown. */
  exception = (*jenv)->ExceptionCheck(jenv) ? NULL
      : (jthrowable)(*jenv)->CallStaticObjectMethod(
            jenv, exception_class, from_native, (jint)tessera_error_code(error), message,
            (jint)tessera_error_reason(error, NULL), (jlong)tessera_error_source_process(error, NULL),
            missing, states, waiting_at, arrived);
  tessera_error_destroy(error);
  /* fromNative itself failing (out of memory) leaves its own exception. */
  if (exception != NULL && !(*jenv)->ExceptionCheck(jenv)) (*jenv)->Throw(jenv, exception);
}

#define TESSERA_SWIG_RAISE(error) tessera_java_raise(jenv, (error))
%}

/* ---- Strings: UTF-8 byte[] (Utf8.encode), NUL-terminated here ---------------- */

%typemap(jni) const char*, char* "jbyteArray"
%typemap(jtype) const char*, char* "byte[]"
%typemap(jstype) const char*, char* "String"
%typemap(javain) const char*, char* "Utf8.encode($javainput)"
%typemap(javaout) const char*, char* {
    return Utf8.decode($jnicall);
  }
%typemap(in, noblock=1) const char* (char small[256], char* heap = NULL) {
  $1 = NULL;
  if ($input != NULL) {
    jsize length = (*jenv)->GetArrayLength(jenv, $input);
    if ((size_t)length < sizeof(small)) {
      $1 = small;
    } else {
      heap = (char*)malloc((size_t)length + 1);
      if (heap == NULL) {
        SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "string argument");
        return $null;
      }
      $1 = heap;
    }
    (*jenv)->GetByteArrayRegion(jenv, $input, 0, length, (jbyte*)$1);
    $1[length] = '\0';
  }
}
%typemap(freearg, noblock=1) const char* { free(heap$argnum); }
%typemap(out, noblock=1) const char*, char* { $result = tessera_java_cstring(jenv, $1); }

/* ---- Arrays ------------------------------------------------------------------ */

%typemap(jni) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) "jlongArray"
%typemap(jtype) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) "long[]"
%typemap(jstype) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) "long[]"
%typemap(javain) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) "$javainput"
%typemap(in, noblock=1) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  $1 = NULL;
  $2 = 0;
  if ($input != NULL) {
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
    $1 = ($1_ltype)(*jenv)->GetLongArrayElements(jenv, $input, NULL);
    if ($1 == NULL) return $null;
  }
}
%typemap(freearg, noblock=1) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  if ($1 != NULL) (*jenv)->ReleaseLongArrayElements(jenv, $input, (jlong*)$1, JNI_ABORT);
}

%typemap(jni) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) "jbyteArray"
%typemap(jtype) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) "byte[]"
%typemap(jstype) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) "byte[]"
%typemap(javain) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) "$javainput"
%typemap(in, noblock=1) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) {
  $1 = NULL;
  $2 = 0;
  if ($input != NULL) {
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
    $1 = ($1_ltype)(*jenv)->GetByteArrayElements(jenv, $input, NULL);
    if ($1 == NULL) return $null;
  }
}
%typemap(freearg, noblock=1) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) {
  if ($1 != NULL) (*jenv)->ReleaseByteArrayElements(jenv, $input, (jbyte*)$1, JNI_ABORT);
}

/* String[] -> byte[][] of UTF-8 (Utf8.encodeAll), copied NUL-terminated; null entries stay NULL. */
%typemap(jni) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "jobjectArray"
%typemap(jtype) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "byte[][]"
%typemap(jstype) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "String[]"
%typemap(javain) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "Utf8.encodeAll($javainput)"
%typemap(in, noblock=1) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT)
    (char** strings = NULL, size_t count = 0) {
  $1 = NULL;
  $2 = 0;
  if ($input != NULL) {
    size_t i;
    count = (size_t)(*jenv)->GetArrayLength(jenv, $input);
    strings = (char**)calloc(count == 0 ? 1 : count, sizeof(char*));
    if (strings == NULL) {
      SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "string array argument");
      return $null;
    }
    for (i = 0; i < count; ++i) {
      jbyteArray item = (jbyteArray)(*jenv)->GetObjectArrayElement(jenv, $input, (jsize)i);
      if (item != NULL) {
        jsize length = (*jenv)->GetArrayLength(jenv, item);
        strings[i] = (char*)malloc((size_t)length + 1);
        if (strings[i] != NULL) {
          (*jenv)->GetByteArrayRegion(jenv, item, 0, length, (jbyte*)strings[i]);
          strings[i][length] = '\0';
        }
        (*jenv)->DeleteLocalRef(jenv, item);
        if (strings[i] == NULL) {
          size_t j;
          for (j = 0; j < i; ++j) free(strings[j]);
          free(strings);
          SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "string array argument");
          return $null;
        }
      }
    }
    $1 = ($1_ltype)strings;
    $2 = count;
  }
}
%typemap(freearg, noblock=1) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) {
  if (strings$argnum != NULL) {
    size_t i;
    for (i = 0; i < count$argnum; ++i) free(strings$argnum[i]);
    free(strings$argnum);
  }
}

/* ---- Results: buffers, text, int64 arrays, byte views ---------------------- */

%typemap(jni) tessera_buffer* "jbyteArray"
%typemap(jtype) tessera_buffer* "byte[]"
%typemap(jstype) tessera_buffer* "byte[]"
%typemap(javaout) tessera_buffer* {
    return $jnicall;
  }
%typemap(out, noblock=1) tessera_buffer* {
  $result = tessera_java_bytes(jenv, tessera_buffer_data($1), tessera_buffer_size($1));
  tessera_buffer_destroy($1);
}

%typemap(jni) tessera_swig_text* "jbyteArray"
%typemap(jtype) tessera_swig_text* "byte[]"
%typemap(jstype) tessera_swig_text* "String"
%typemap(javaout) tessera_swig_text* {
    return Utf8.decode($jnicall);
  }
%typemap(out, noblock=1) tessera_swig_text* {
  $result = tessera_java_bytes(jenv, tessera_buffer_data($1), tessera_buffer_size($1));
  tessera_buffer_destroy($1);
}

%typemap(jni) tessera_swig_int64s "jlongArray"
%typemap(jtype) tessera_swig_int64s "long[]"
%typemap(jstype) tessera_swig_int64s "long[]"
%typemap(javaout) tessera_swig_int64s {
    return $jnicall;
  }
%typemap(out, noblock=1) tessera_swig_int64s {
  $result = NULL;
  if (tessera_swig_int64s_oom($1) || $1.size > 0x7fffffff) {
    SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "int64 array result");
  } else {
    $result = (*jenv)->NewLongArray(jenv, (jsize)$1.size);
    if ($result != NULL && $1.size > 0) {
      (*jenv)->SetLongArrayRegion(jenv, $result, 0, (jsize)$1.size, (const jlong*)$1.data);
    }
  }
  free($1.data);
}

/* Bytes the wrapper malloc'd (copy.h's results, key-value lists): copied,
   then freed; data NULL is a failed call (null). */
%typemap(jni) tessera_swig_bytes "jbyteArray"
%typemap(jtype) tessera_swig_bytes "byte[]"
%typemap(jstype) tessera_swig_bytes "byte[]"
%typemap(javaout) tessera_swig_bytes {
    return $jnicall;
  }
%typemap(out, noblock=1) tessera_swig_bytes {
  $result = NULL;
  if ($1.data == NULL && $1.size > 0) {
    SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "byte array result");
  } else {
    $result = tessera_java_bytes(jenv, $1.data, $1.size);
  }
  free($1.data);
}

/* ---- Handles: AutoCloseable, a Cleaner as the safety net ----------------- */

%typemap(javainterfaces) SWIGTYPE "AutoCloseable"
%typemap(javafinalize) SWIGTYPE ""
%typemap(javabody) SWIGTYPE %{
  private transient long swigCPtr;
  private transient boolean swigCMemOwn;
  private transient java.lang.ref.Cleaner.Cleanable swigCleanable;

  $javaclassname(long cPtr, boolean cMemoryOwn) {
    swigCMemOwn = cMemoryOwn;
    swigCPtr = cPtr;
    if (cMemoryOwn && cPtr != 0) {
      swigCleanable = NativeCleaner.register(this, cPtr, $imclassname::delete_$javaclassname);
    }
  }

  static long getCPtr($javaclassname obj) {
    return (obj == null) ? 0 : obj.swigCPtr;
  }
%}
/* close() is the destructor: no separate public delete(). */
%typemap(javadestruct, methodname="close",
         methodmodifiers="/** Releases the native object now; later calls see a closed handle (INVALID_ARGUMENT). */\n  @Override\n  public synchronized") SWIGTYPE {
    if (swigCleanable != null) {
      swigCleanable.clean();
      swigCleanable = null;
    }
    swigCPtr = 0;
    swigCMemOwn = false;
  }

/* Object.equals/hashCode/toString from the C functions: equals is the one
 * comparison (the C function stays private). */
%javamethodmodifiers Mesh::is_equal "private";
%javamethodmodifiers Layout::is_equal "private";
%typemap(javacode) Mesh %{
  @Override
  public boolean equals(Object other) {
    return other instanceof Mesh && isEqual((Mesh) other);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(shape());
  }

  /** The mesh's dimensions. */
  public long[] shape() {
    long[] shape = new long[(int) numAxes()];
    for (int i = 0; i < shape.length; ++i) shape[i] = dim(i);
    return shape;
  }

  /** The mesh's axis names. */
  public String[] axisNames() {
    String[] names = new String[(int) numAxes()];
    for (int i = 0; i < names.length; ++i) names[i] = axisName(i);
    return names;
  }
%}
%typemap(javacode) Layout %{
  @Override
  public boolean equals(Object other) {
    return other instanceof Layout && isEqual((Layout) other);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(numDims());
  }
%}

/* ---- Counts: num_<things>, as the C functions say them ---------------------- */

/* (Explicit names skip the lowerCamelCase rule above, so they are written in it.) */

%rename(numAxes) Mesh::rank;
%rename(numDevices) Mesh::size;
%rename(numDims) Layout::rank;
%rename(numDevices) DeviceList::size;
%rename(numDevices) LocalDevices::size;
%rename(numRules) LayoutMap::size;
%rename(numDims) Sharding::rank;
%rename(numDims) ReshardPlan::rank;
%rename(numDims) DTensorMesh::rank;
%rename(numEntries) KvList::size;
%rename(numLocalDeviceIds) Detection::local_device_id_count;

/* ---- Durations: java.time.Duration for every timeout and interval --------- */

/* In milliseconds for C (Durations.millis: null and overflow handled there). */
%typemap(jstype) int64_t timeout_ms, int64_t interval_ms "java.time.Duration"
%typemap(javain) int64_t timeout_ms, int64_t interval_ms "Durations.millis($javainput, \"$1_name\")"
%rename(setTlsReloadInterval) ClusterOptions::set_tls_reload_interval_ms;
%rename(setInitTimeout) ClusterOptions::set_init_timeout_ms;
%rename(setShutdownTimeout) ClusterOptions::set_shutdown_timeout_ms;
%rename(setRpcTimeout) ClusterOptions::set_rpc_timeout_ms;
%typemap(jstype) int64_t handshake_timeout_ms, int64_t idle_timeout_ms "java.time.Duration"
%typemap(javain) int64_t handshake_timeout_ms, int64_t idle_timeout_ms "Durations.millis($javainput, \"$1_name\")"
%rename(setConnectionTimeouts) ClusterOptions::set_connection_timeouts;

/* Scatter and gather: shards as byte[][] (the concatenation stays in the glue). */
%javamethodmodifiers Sharding::scatter_concat "private";
%javamethodmodifiers Sharding::gather_concat "private";
%typemap(javacode) Sharding %{
  /**
   * Each device's shard of `global` (row-major, `elementSize` bytes per
   * element), in device order: entry i holds shardSize(i, elementSize) bytes,
   * shaped as shardShape(i). Devices that `options` leave out get zeros.
   * `options` may be null (the defaults).
   */
  public byte[][] scatter(byte[] global, long elementSize, CopyOptions options) {
    byte[] concat = scatterConcat(global, elementSize, options);
    byte[][] shards = new byte[(int) numDevices()][];
    int offset = 0;
    for (int i = 0; i < shards.length; ++i) {
      int size = (int) shardSize(i, elementSize);
      shards[i] = java.util.Arrays.copyOfRange(concat, offset, offset + size);
      offset += size;
    }
    return shards;
  }

  /** scatter with the default options. */
  public byte[][] scatter(byte[] global, long elementSize) {
    return scatter(global, elementSize, null);
  }

  /**
   * The global array (`globalSize` bytes, row-major) assembled from each
   * device's shard in device order; entry i must hold shardSize(i,
   * elementSize) bytes (entries the copy does not read are not looked at,
   * but must have that size too). `options` may be null (the defaults).
   */
  public byte[] gather(byte[][] shards, long elementSize, long globalSize, CopyOptions options) {
    if (globalSize < 0 || globalSize > Integer.MAX_VALUE) {
      throw new TesseraException(Code.INVALID_ARGUMENT,
          "Argument 'globalSize' must be 0.." + Integer.MAX_VALUE + " (a Java array), got "
          + globalSize);
    }
    return gatherConcat(concatenate(shards, elementSize), elementSize, globalSize, options);
  }

  /** gather with the default options. */
  public byte[] gather(byte[][] shards, long elementSize, long globalSize) {
    return gather(shards, elementSize, globalSize, null);
  }

  /** scatter of float elements (4 bytes each, the platform's byte order). */
  public float[][] scatter(float[] global, CopyOptions options) {
    byte[][] shards = scatter(HostArrays.bytes(global), Float.BYTES, options);
    float[][] values = new float[shards.length][];
    for (int i = 0; i < shards.length; ++i) values[i] = HostArrays.floats(shards[i]);
    return values;
  }

  /** gather of float elements; `globalLength` counts elements. */
  public float[] gather(float[][] shards, int globalLength, CopyOptions options) {
    return HostArrays.floats(gather(HostArrays.bytes(shards), Float.BYTES,
                                    (long) globalLength * Float.BYTES, options));
  }

  /** scatter of int64 elements (8 bytes each, the platform's byte order). */
  public long[][] scatter(long[] global, CopyOptions options) {
    byte[][] shards = scatter(HostArrays.bytes(global), Long.BYTES, options);
    long[][] values = new long[shards.length][];
    for (int i = 0; i < shards.length; ++i) values[i] = HostArrays.longs(shards[i]);
    return values;
  }

  /** gather of int64 elements; `globalLength` counts elements. */
  public long[] gather(long[][] shards, int globalLength, CopyOptions options) {
    return HostArrays.longs(gather(HostArrays.bytes(shards), Long.BYTES,
                                   (long) globalLength * Long.BYTES, options));
  }

  private byte[] concatenate(byte[][] shards, long elementSize) {
    long devices = numDevices();
    if (shards == null || shards.length != devices) {
      throw new TesseraException(Code.INVALID_ARGUMENT,
          "Argument 'shards' must have " + devices + " entries (one per device), got "
          + (shards == null ? "null" : Integer.toString(shards.length)));
    }
    long total = 0;
    for (int i = 0; i < shards.length; ++i) {
      long size = shardSize(i, elementSize);
      if (shards[i] == null || shards[i].length != size) {
        throw new TesseraException(Code.INVALID_ARGUMENT,
            "Argument 'shards[" + i + "]' must have " + size + " bytes (device " + i
            + "'s shard), got " + (shards[i] == null ? "null" : shards[i].length + " bytes"));
      }
      total += size;
    }
    if (total > Integer.MAX_VALUE) {
      throw new TesseraException(Code.INVALID_ARGUMENT,
          "Argument 'shards' must total at most " + Integer.MAX_VALUE + " bytes, got " + total);
    }
    byte[] concat = new byte[(int) total];
    int offset = 0;
    for (byte[] shard : shards) {
      System.arraycopy(shard, 0, concat, offset, shard.length);
      offset += shard.length;
    }
    return concat;
  }
%}

/* ---- Events on a library thread --------------------------------------------- */

%{
/* One installed listener: a global reference and where to dispatch it. */
typedef struct tessera_java_listener {
  JavaVM* vm;
  jobject listener;  /* global reference */
  jclass dispatch_class;  /* global reference to org.tessera.EventDispatch */
  jmethodID dispatch;
  const tessera_client* client;
  struct tessera_java_listener* next;
} tessera_java_listener;

/* Every listener installed on a live client; freed when its client is
 * destroyed (a replaced one may still be running on the event thread). */
static tessera_java_listener* tessera_java_listeners = NULL;
static pthread_mutex_t tessera_java_listeners_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t tessera_java_thread_key;
static pthread_once_t tessera_java_thread_key_once = PTHREAD_ONCE_INIT;

/* Library threads attached to the JVM detach when they end. */
static void tessera_java_detach(void* vm) { (*(JavaVM*)vm)->DetachCurrentThread((JavaVM*)vm); }
static void tessera_java_make_thread_key(void) {
  pthread_key_create(&tessera_java_thread_key, tessera_java_detach);
}

static JNIEnv* tessera_java_env(JavaVM* vm) {
  JNIEnv* env = NULL;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) == JNI_OK) return env;
  if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void**)&env, NULL) != JNI_OK) return NULL;
  pthread_once(&tessera_java_thread_key_once, tessera_java_make_thread_key);
  pthread_setspecific(tessera_java_thread_key, vm);
  return env;
}

static void tessera_java_on_event(const tessera_event* event, void* user_data) {
  tessera_java_listener* l = (tessera_java_listener*)user_data;
  JNIEnv* env = tessera_java_env(l->vm);
  jbyteArray message;
  if (env == NULL) return;
  message = tessera_java_cstring(env, tessera_event_message(event, NULL));
  (*env)->CallStaticVoidMethod(env, l->dispatch_class, l->dispatch, l->listener,
                               (jint)tessera_event_kind(event, NULL),
                               (jlong)tessera_event_process_index(event, NULL),
                               (jint)tessera_event_task_state(event, NULL),
                               (jint)tessera_event_code(event, NULL), message,
                               (jlong)tessera_event_generation(event, NULL),
                               (jlong)tessera_event_version(event, NULL));
  /* EventDispatch catches the listener's exceptions; anything left is dropped. */
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (message != NULL) (*env)->DeleteLocalRef(env, message);
}

static void tessera_java_free_listener(JNIEnv* env, tessera_java_listener* l) {
  if (env != NULL) {
    (*env)->DeleteGlobalRef(env, l->listener);
    (*env)->DeleteGlobalRef(env, l->dispatch_class);
  }
  free(l);
}

/* Destroys the client (its event thread stops), then its listeners. */
static void tessera_java_client_destroy(tessera_client* client) {
  tessera_java_listener** link;
  tessera_java_listener* released = NULL;
  if (client == NULL) return;
  pthread_mutex_lock(&tessera_java_listeners_lock);
  link = &tessera_java_listeners;
  while (*link != NULL) {
    tessera_java_listener* l = *link;
    if (l->client == client) {
      *link = l->next;
      l->next = released;
      released = l;
    } else {
      link = &l->next;
    }
  }
  pthread_mutex_unlock(&tessera_java_listeners_lock);
  tessera_client_destroy(client);
  while (released != NULL) {
    tessera_java_listener* next = released->next;
    tessera_java_free_listener(tessera_java_env(released->vm), released);
    released = next;
  }
}
#define TESSERA_SWIG_CLIENT_DESTROY(client) tessera_java_client_destroy(client)
%}

/* ---- The log handler ---------------------------------------------------------- */

%{
/*
 * The one installed LogHandler. The C callback never owns it: each message
 * takes a local reference under the lock, so replacing the handler only
 * swaps the global reference (an old sink still running, as log.h allows,
 * sees the current handler or none, never a freed one). After the JVM's
 * shutdown hook has run (closed) no library thread enters the JVM again.
 */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t idle;    /* signalled when in_flight drops to 0 */
  JavaVM* vm;
  jobject handler;        /* global reference; NULL: none */
  jclass dispatch_class;  /* global reference to org.tessera.LogDispatch */
  jmethodID dispatch;
  int in_flight;          /* trampolines between attach and return */
  int closed;
} tessera_java_log = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, NULL,
                      NULL, 0, 0};

/* The handler for this thread's call (a local reference), or NULL. */
static jobject tessera_java_log_handler(JNIEnv* env) {
  jobject handler = NULL;
  pthread_mutex_lock(&tessera_java_log.lock);
  if (tessera_java_log.handler != NULL && !tessera_java_log.closed) {
    handler = (*env)->NewLocalRef(env, tessera_java_log.handler);
  }
  pthread_mutex_unlock(&tessera_java_log.lock);
  return handler;
}

static void tessera_java_on_log(tessera_log_level_t level, const char* message, size_t size,
                                void* user_data) {
  JavaVM* vm;
  JNIEnv* env;
  (void)user_data;
  pthread_mutex_lock(&tessera_java_log.lock);
  vm = tessera_java_log.closed ? NULL : tessera_java_log.vm;
  if (vm != NULL) ++tessera_java_log.in_flight;
  pthread_mutex_unlock(&tessera_java_log.lock);
  if (vm == NULL) return;
  env = tessera_java_env(vm);
  if (env != NULL) {
    /* A Java thread may log with an exception pending (a wrapper that has
     * already raised): it is set aside for the call and thrown again. */
    jthrowable pending = (*env)->ExceptionOccurred(env);
    jobject handler;
    if (pending != NULL) (*env)->ExceptionClear(env);
    handler = tessera_java_log_handler(env);
    if (handler != NULL) {
      jbyteArray text = tessera_java_bytes(env, message, size);
      if (text != NULL) {
        (*env)->CallStaticVoidMethod(env, tessera_java_log.dispatch_class,
                                     tessera_java_log.dispatch, handler, (jint)level, text);
        (*env)->DeleteLocalRef(env, text);
      }
      /* LogDispatch catches the handler's exceptions; anything left is dropped. */
      if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
      (*env)->DeleteLocalRef(env, handler);
    }
    if (pending != NULL) {
      (*env)->Throw(env, pending);
      (*env)->DeleteLocalRef(env, pending);
    }
  }
  pthread_mutex_lock(&tessera_java_log.lock);
  if (--tessera_java_log.in_flight == 0) pthread_cond_broadcast(&tessera_java_log.idle);
  pthread_mutex_unlock(&tessera_java_log.lock);
}

/* Makes `handler` (a global reference, or NULL) the current one; returns the old. */
static jobject tessera_java_log_swap(jobject handler) {
  jobject old;
  pthread_mutex_lock(&tessera_java_log.lock);
  old = tessera_java_log.handler;
  tessera_java_log.handler = handler;
  pthread_mutex_unlock(&tessera_java_log.lock);
  return old;
}

/* Finds LogDispatch.dispatch once; false with a Java exception pending. */
static int tessera_java_log_init(JNIEnv* jenv) {
  jclass local;
  if (tessera_java_log.dispatch_class != NULL) return 1;
  local = (*jenv)->FindClass(jenv, "org/tessera/LogDispatch");
  if (local == NULL) return 0;
  tessera_java_log.dispatch = (*jenv)->GetStaticMethodID(jenv, local, "dispatch",
                                                         "(Lorg/tessera/LogHandler;I[B)V");
  if (tessera_java_log.dispatch != NULL) {
    (*jenv)->GetJavaVM(jenv, &tessera_java_log.vm);
    tessera_java_log.dispatch_class = (jclass)(*jenv)->NewGlobalRef(jenv, local);
  }
  (*jenv)->DeleteLocalRef(jenv, local);
  return tessera_java_log.dispatch_class != NULL;
}

/* Tessera.setLogHandler (synchronized there): null restores stderr. */
/* (Declared in this file, before tessera.i's error typemaps: it raises itself.) */
static void java_set_log_handler(JNIEnv* jenv, jobject handler, int min_level) {
  tessera_error* err = NULL;
  jobject global, old;
  if (handler == NULL) {
    if (tessera_log_set_callback(NULL, NULL, (tessera_log_level_t)min_level, &err)) {
      old = tessera_java_log_swap(NULL);
      if (old != NULL) (*jenv)->DeleteGlobalRef(jenv, old);
    }
  } else if (!tessera_java_log.closed && tessera_java_log_init(jenv)) {
    global = (*jenv)->NewGlobalRef(jenv, handler);
    if (global == NULL) return;
    old = tessera_java_log_swap(global);
    if (!tessera_log_set_callback(tessera_java_on_log, NULL, (tessera_log_level_t)min_level,
                                  &err)) {
      global = tessera_java_log_swap(old);
      old = global;
    }
    if (old != NULL) (*jenv)->DeleteGlobalRef(jenv, old);
  }
  if (err != NULL) tessera_java_raise(jenv, err);
}

/* The JVM is shutting down: stderr again, and no library thread enters the
 * JVM after this returns (messages in flight get up to a second to finish). */
static void java_log_handler_shutdown(void) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 1;
  tessera_log_set_callback(NULL, NULL, TESSERA_LOG_WARNING, NULL);
  pthread_mutex_lock(&tessera_java_log.lock);
  tessera_java_log.closed = 1;
  while (tessera_java_log.in_flight > 0 &&
         pthread_cond_timedwait(&tessera_java_log.idle, &tessera_java_log.lock, &deadline) == 0) {
  }
  pthread_mutex_unlock(&tessera_java_log.lock);
}
%}

%typemap(in, numinputs=0, noblock=1) JNIEnv* jenv { $1 = jenv; }
%typemap(jstype) jobject handler "LogHandler"
%typemap(javain) jobject handler "$javainput"
%rename(set_log_handler_native) java_set_log_handler;
%rename(log_handler_shutdown_native) java_log_handler_shutdown;
void java_set_log_handler(JNIEnv* jenv, jobject handler, int min_level);
void java_log_handler_shutdown(void);

#if !defined(TESSERA_SWIG_NO_CLUSTER)
%typemap(jstype) jobject listener "EventListener"
%typemap(javain) jobject listener "$javainput"
%javamethodmodifiers Client::set_event_listener_native "private";
%extend Client {
  /* Installs `listener` (an EventListener; null removes it). */
  void set_event_listener_native(JNIEnv* jenv, jobject listener, tessera_error** out_error) {
    tessera_java_listener* l;
    jclass local;
    if (listener == NULL) {
      tessera_client_set_event_callback($self, NULL, NULL, out_error);
      return;
    }
    l = (tessera_java_listener*)calloc(1, sizeof(*l));
    if (l == NULL) return;
    (*jenv)->GetJavaVM(jenv, &l->vm);
    local = (*jenv)->FindClass(jenv, "org/tessera/EventDispatch");
    if (local == NULL) {
      free(l);
      return;
    }
    l->dispatch = (*jenv)->GetStaticMethodID(jenv, local, "dispatch",
                                             "(Lorg/tessera/EventListener;IJII[BJJ)V");
    if (l->dispatch == NULL) {
      (*jenv)->DeleteLocalRef(jenv, local);
      free(l);
      return;
    }
    l->dispatch_class = (jclass)(*jenv)->NewGlobalRef(jenv, local);
    (*jenv)->DeleteLocalRef(jenv, local);
    l->listener = (*jenv)->NewGlobalRef(jenv, listener);
    l->client = $self;
    if (!tessera_client_set_event_callback($self, tessera_java_on_event, l, out_error)) {
      tessera_java_free_listener(jenv, l);
      return;
    }
    pthread_mutex_lock(&tessera_java_listeners_lock);
    l->next = tessera_java_listeners;
    tessera_java_listeners = l;
    pthread_mutex_unlock(&tessera_java_listeners_lock);
  }
}
%typemap(javacode) Client %{
  /**
   * Installs `listener` (null removes it). It runs on a library thread, one
   * event at a time; while one is installed, nextEvent() receives nothing.
   */
  public void setEventListener(EventListener listener) {
    setEventListenerNative(listener);
  }
%}
#endif

/* ---- Experimental: DTensor layouts, config and mesh queries (issue 11) ------ */

%rename("%(strip:[TESSERA_DTENSOR_LAYOUT_])s", %$isenumitem, match$parentNode$name="tessera_dtensor_layout_type_t") "";
%rename(numDims) DTensorLayout::rank;
/* The layouts' lists and the flattened local shapes are the glue's; the
 * methods below take Java arrays. */
%javamethodmodifiers DTensorLayout::is_equal "private";
%javamethodmodifiers DTensorMesh::is_equal "private";
%javamethodmodifiers DTensorLayout::most_sharded_of "private";
%javamethodmodifiers DTensorLayout::least_sharded_of "private";
%javamethodmodifiers DTensorLayout::global_shape_from_local "private";
%rename(globalShapeFromLocalFlat) DTensorLayout::global_shape_from_local;
%typemap(javacode) DTensorLayout %{
  @Override
  public boolean equals(Object other) {
    return other instanceof DTensorLayout && isEqual((DTensorLayout) other);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(specs());
  }

  /** The sharding specs, one per dimension. */
  public String[] specs() {
    String[] specs = new String[(int) numDims()];
    for (int i = 0; i < specs.length; ++i) specs[i] = spec(i);
    return specs;
  }

  /** DTensor's GetMostShardedLayout of `layouts` (at least one), on the first one's mesh. */
  public static DTensorLayout mostSharded(DTensorLayout... layouts) {
    try {
      return mostShardedOf(addresses(layouts));
    } finally {
      java.lang.ref.Reference.reachabilityFence(layouts);
    }
  }

  /** DTensor's GetLeastShardedLayout of `layouts` (at least one, of one rank). */
  public static DTensorLayout leastSharded(DTensorLayout... layouts) {
    try {
      return leastShardedOf(addresses(layouts));
    } finally {
      java.lang.ref.Reference.reachabilityFence(layouts);
    }
  }

  /* The handles of live layouts; 0 (refused by the C call, naming the entry) for null. */
  private static long[] addresses(DTensorLayout[] layouts) {
    long[] addresses = new long[layouts == null ? 0 : layouts.length];
    for (int i = 0; i < addresses.length; ++i) addresses[i] = getCPtr(layouts[i]);
    return addresses;
  }

  /**
   * GlobalShapeFromLocalShape: the global shape of `localShape`; with
   * `localShapes` (one per local device, each of the rank's extents), a
   * dynamic axis sums its shards.
   */
  public long[] globalShapeFromLocal(long[] localShape, long[]... localShapes) {
    int rank = localShape == null ? 0 : localShape.length;
    long[] flat = new long[localShapes.length * rank];
    for (int k = 0; k < localShapes.length; ++k) {
      if (localShapes[k].length != rank) {
        throw new TesseraException(Code.INVALID_ARGUMENT, "Argument 'local_shapes' entry " + k + " has "
            + localShapes[k].length + " extents; expected the local shape's " + rank);
      }
      System.arraycopy(localShapes[k], 0, flat, k * rank, rank);
    }
    return globalShapeFromLocalFlat(localShape, flat, localShapes.length);
  }
%}
%typemap(javacode) DTensorMesh %{
  @Override
  public boolean equals(Object other) {
    return other instanceof DTensorMesh && isEqual((DTensorMesh) other);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(numDims() * 31 + numGlobalIds());
  }

  /** Mesh::hosts: the distinct "/job:J/task:T" of the local devices, first seen first. */
  public String[] hosts() {
    String[] hosts = new String[(int) numHosts()];
    for (int i = 0; i < hosts.length; ++i) hosts[i] = host(i);
    return hosts;
  }
%}
%typemap(javacode) DTensorConfig %{
  /** DTensor's jobs(): DTENSOR_JOBS split on ',' (empty in local mode). */
  public String[] jobs() {
    String[] jobs = new String[(int) numJobs()];
    for (int i = 0; i < jobs.length; ++i) jobs[i] = job(i);
    return jobs;
  }
%}

/* ---- issue 12: checkpoint metadata as records ----------------------------- */

%typemap(javacode) Checkpoint %{
  /** The checkpoint's files, in the order of their names. */
  public java.util.List<CheckpointFile> files() {
    CheckpointFile[] files = new CheckpointFile[(int) numFiles()];
    for (int i = 0; i < files.length; ++i) files[i] = new CheckpointFile(filePath(i), fileSize(i));
    return java.util.List.of(files);
  }

  /** Tensor `index` (OUT_OF_RANGE from numTensors() on). */
  public CheckpointTensor tensor(long index) {
    return new CheckpointTensor(tensorName(index), tensorElementType(index), tensorBlockNumElements(index),
                                tensorBlockSize(index), tensorShape(index), tensorFileIndex(index),
                                tensorOffset(index), tensorSize(index));
  }

  /** The tensor called `name` (NOT_FOUND when none is). */
  public CheckpointTensor tensor(String name) {
    return tensor(tensorLookup(name));
  }

  /** Every tensor, file by file in each header's order. */
  public java.util.List<CheckpointTensor> tensors() {
    CheckpointTensor[] tensors = new CheckpointTensor[(int) numTensors()];
    for (int i = 0; i < tensors.length; ++i) tensors[i] = tensor(i);
    return java.util.List.of(tensors);
  }

  /** The metadata entries in file order (their keys are distinct), unmodifiable. */
  public java.util.Map<String, String> metadata() {
    java.util.Map<String, String> entries = new java.util.LinkedHashMap<>();
    long n = numMetadataEntries();
    for (long i = 0; i < n; ++i) entries.put(metadataKey(i), metadataValue(i));
    return java.util.Collections.unmodifiableMap(entries);
  }
%}

/* ---- issue 12: loading into direct ByteBuffers ------------------------------ */

/* ByteBuffer[] -> one pointer and size per buffer, its address and capacity
 * (JNI's GetDirectBufferAddress/GetDirectBufferCapacity), valid while the
 * call holds the array. A heap buffer has no address: IllegalArgumentException
 * (ReadPlan.execute says so first, naming the entry). */
%typemap(jni) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "jobjectArray"
%typemap(jtype) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "java.nio.ByteBuffer[]"
%typemap(jstype) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "java.nio.ByteBuffer[]"
%typemap(javain) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "$javainput"
%typemap(in, noblock=1) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT)
    (void** pointers = NULL, size_t* sizes = NULL) {
  $1 = NULL;
  $2 = NULL;
  $3 = 0;
  if ($input != NULL) {
    size_t i, count = (size_t)(*jenv)->GetArrayLength(jenv, $input);
    pointers = (void**)calloc(count == 0 ? 1 : count, sizeof(void*));
    sizes = (size_t*)calloc(count == 0 ? 1 : count, sizeof(size_t));
    if (pointers == NULL || sizes == NULL) {
      free(pointers);
      free(sizes);
      SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "buffer array argument");
      return $null;
    }
    for (i = 0; i < count; ++i) {
      jobject buffer = (*jenv)->GetObjectArrayElement(jenv, $input, (jsize)i);
      jlong capacity = buffer == NULL ? -1 : (*jenv)->GetDirectBufferCapacity(jenv, buffer);
      pointers[i] = buffer == NULL ? NULL : (*jenv)->GetDirectBufferAddress(jenv, buffer);
      if (buffer != NULL) (*jenv)->DeleteLocalRef(jenv, buffer);
      if (pointers[i] == NULL && capacity != 0) {
        char message[120];
        snprintf(message, sizeof message, "Argument 'buffers[%zu]' is %s; expected a direct ByteBuffer", i,
                 buffer == NULL ? "null" : "a heap ByteBuffer");
        free(pointers);
        free(sizes);
        SWIG_JavaThrowException(jenv, SWIG_JavaIllegalArgumentException, message);
        return $null;
      }
      sizes[i] = capacity < 0 ? 0 : (size_t)capacity;
    }
    $1 = pointers;
    $2 = sizes;
    $3 = count;
  }
}
%typemap(freearg, noblock=1) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) {
  free(pointers$argnum);
  free(sizes$argnum);
}

/* The callback forms: JNI trampolines call a LoadCallbacks (a global
 * reference for the load's duration) on the loader threads, which
 * tessera_java_env attaches to the JVM as daemons. */
%{
typedef struct tessera_java_load {
  JavaVM* vm;
  jobject callbacks; /* global reference to the org.tessera.LoadCallbacks */
  jmethodID piece;
  jmethodID progress;
} tessera_java_load;

/* A local reference made on a thread the JVM did not start lives until the
 * thread detaches: each is deleted at once. */
static bool tessera_java_load_piece(size_t piece, int64_t offset, const void* bytes, size_t size,
                                    void* user_data) {
  static char empty[1];
  tessera_java_load* l = (tessera_java_load*)user_data;
  JNIEnv* env = tessera_java_env(l->vm);
  jobject view;
  jboolean keep_going = JNI_FALSE;
  if (env == NULL) return false;
  view = (*env)->NewDirectByteBuffer(env, size == 0 ? empty : (void*)bytes, (jlong)size);
  if (view != NULL) {
    keep_going = (*env)->CallBooleanMethod(env, l->callbacks, l->piece, (jlong)piece, (jlong)offset, view);
    (*env)->DeleteLocalRef(env, view);
  }
  /* LoadCallbacks catches the callback's exceptions; anything left cancels. */
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    keep_going = JNI_FALSE;
  }
  return keep_going == JNI_TRUE;
}

static bool tessera_java_load_progress(int64_t bytes_done, int64_t bytes_total, void* user_data) {
  tessera_java_load* l = (tessera_java_load*)user_data;
  JNIEnv* env = tessera_java_env(l->vm);
  jboolean keep_going;
  if (env == NULL) return false;
  keep_going = (*env)->CallBooleanMethod(env, l->callbacks, l->progress, (jlong)bytes_done, (jlong)bytes_total);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    keep_going = JNI_FALSE;
  }
  return keep_going == JNI_TRUE;
}

/* Fills `l` for `callbacks`; false with a Java exception pending. */
static int tessera_java_load_init(JNIEnv* jenv, jobject callbacks, tessera_java_load* l) {
  jclass type = (*jenv)->GetObjectClass(jenv, callbacks);
  if (type == NULL) return 0;
  l->piece = (*jenv)->GetMethodID(jenv, type, "piece", "(JJLjava/nio/ByteBuffer;)Z");
  l->progress = l->piece == NULL ? NULL : (*jenv)->GetMethodID(jenv, type, "progress", "(JJ)Z");
  (*jenv)->DeleteLocalRef(jenv, type);
  if (l->progress == NULL || (*jenv)->GetJavaVM(jenv, &l->vm) != JNI_OK) return 0;
  l->callbacks = (*jenv)->NewGlobalRef(jenv, callbacks);
  return l->callbacks != NULL;
}
%}

%typemap(jstype) jobject callbacks "LoadCallbacks"
%typemap(javain) jobject callbacks "$javainput"
%javamethodmodifiers ReadPlan::execute_progress_native "private";
%javamethodmodifiers ReadPlan::stream_native "private";
%extend ReadPlan {
  /* tessera_read_plan_execute with `callbacks`' progress. */
  int64_t execute_progress_native(JNIEnv* jenv, jobject callbacks, void* const* TESSERA_BUFFERS_OUT,
                                  const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT,
                                  tessera_error** out_error) {
    tessera_java_load l;
    int64_t bytes_read = 0;
    if (!tessera_java_load_init(jenv, callbacks, &l)) return 0;
    tessera_read_plan_execute($self, TESSERA_BUFFERS_OUT, TESSERA_BUFFERS_OUT_SIZES, TESSERA_BUFFERS_OUT_COUNT,
                              tessera_java_load_progress, &l, &bytes_read, out_error);
    (*jenv)->DeleteGlobalRef(jenv, l.callbacks);
    return bytes_read;
  }
  /* tessera_read_plan_stream with `callbacks` (progress: whether to report it). */
  int64_t stream_native(JNIEnv* jenv, jobject callbacks, bool progress, tessera_error** out_error) {
    tessera_java_load l;
    int64_t bytes_read = 0;
    if (!tessera_java_load_init(jenv, callbacks, &l)) return 0;
    tessera_read_plan_stream($self, tessera_java_load_piece, &l,
                                       progress ? tessera_java_load_progress : NULL, &l, &bytes_read, out_error);
    (*jenv)->DeleteGlobalRef(jenv, l.callbacks);
    return bytes_read;
  }
}

%rename(executeInto) ReadPlan::execute;
%javamethodmodifiers ReadPlan::execute "private";
%typemap(javacode) ReadPlan %{
  /** Piece `index` (OUT_OF_RANGE from numPieces() on). */
  public ReadPiece piece(long index) {
    return new ReadPiece(pieceDevice(index), pieceTensor(index), pieceRanges(index), pieceShape(index),
                         pieceSize(index));
  }

  /** Every piece: the process's devices in mesh order, each with every tensor in checkpoint order. */
  public java.util.List<ReadPiece> pieces() {
    ReadPiece[] pieces = new ReadPiece[(int) numPieces()];
    for (int i = 0; i < pieces.length; ++i) pieces[i] = piece(i);
    return java.util.List.of(pieces);
  }

  /** One direct buffer per piece, of its size (ByteBuffer.allocateDirect), ready for execute. */
  public java.nio.ByteBuffer[] allocateBuffers() {
    java.nio.ByteBuffer[] buffers = new java.nio.ByteBuffer[(int) numPieces()];
    for (int i = 0; i < buffers.length; ++i) {
      buffers[i] = java.nio.ByteBuffer.allocateDirect(Math.toIntExact(pieceSize(i)));
    }
    return buffers;
  }

  /**
   * Reads piece i's shard into buffers[i], which must be a direct, writable
   * ByteBuffer whose capacity is pieceSize(i) (its position and limit are
   * not used or changed); returns the bytes read from the files, which equal
   * totalBytes(). Blocks until every loader thread is done.
   *
   * @throws IllegalArgumentException for a null, heap or read-only buffer
   */
  public long execute(java.nio.ByteBuffer... buffers) {
    return execute((LoadProgress) null, buffers);
  }

  /**
   * execute(buffers), telling `progress` (null: nobody) the bytes read so far
   * after each block of reads.
   *
   * @throws IllegalArgumentException for a null, heap or read-only buffer
   */
  public long execute(LoadProgress progress, java.nio.ByteBuffer... buffers) {
    if (buffers != null) {
      for (int i = 0; i < buffers.length; ++i) {
        java.nio.ByteBuffer b = buffers[i];
        if (b == null || !b.isDirect() || b.isReadOnly()) {
          throw new IllegalArgumentException("Argument 'buffers[" + i + "]' is "
              + (b == null ? "null" : b.isDirect() ? "read-only" : "a heap ByteBuffer")
              + "; expected a direct, writable ByteBuffer (ByteBuffer.allocateDirect)");
        }
      }
    }
    if (progress == null) return executeInto(buffers);
    LoadCallbacks callbacks = new LoadCallbacks(null, progress);
    try {
      return executeProgressNative(callbacks, buffers);
    } catch (RuntimeException e) {
      throw callbacks.rethrow(e);
    }
  }

  /**
   * Reads the plan, handing each piece's bytes to `consumer` in parts (see
   * {@link PieceConsumer}): every byte of every piece arrives exactly once,
   * replicas each get their own call. `progress` may be null. Returns the
   * bytes read from the files.
   */
  public long execute(PieceConsumer consumer, LoadProgress progress) {
    if (consumer == null) {
      throw new TesseraException(Code.INVALID_ARGUMENT, "Argument 'consumer' is null; expected a PieceConsumer");
    }
    LoadCallbacks callbacks = new LoadCallbacks(consumer, progress);
    try {
      return streamNative(callbacks, progress != null);
    } catch (RuntimeException e) {
      throw callbacks.rethrow(e);
    }
  }
%}

/* ---- issue 12: checkpoint memory plans as records ---------------------------- */

%rename("%(strip:[TESSERA_PLAN_RECIPE_])s", %$isenumitem, match$parentNode$name="tessera_plan_recipe_t") "";
%rename("%(strip:[TESSERA_PLAN_TERM_])s", %$isenumitem, match$parentNode$name="tessera_plan_term_t") "";
%rename("%(strip:[TESSERA_PLAN_VERDICT_])s", %$isenumitem, match$parentNode$name="tessera_plan_verdict_t") "";
/* The layout maps' addresses are the glue's; search() takes LayoutMap objects. */
%javamethodmodifiers CheckpointPlan::search_of "private";
%typemap(javacode) CheckpointPlan %{
  /** Tensor `index` as planned (OUT_OF_RANGE from numTensors() on). */
  public PlannedTensor tensor(long index) {
    return new PlannedTensor(tensorElementType(index), tensorRule(index), tensorShardShape(index),
                             tensorShardBytes(index), tensorProblem(index));
  }

  /** Every tensor as planned, in the checkpoint's order. */
  public java.util.List<PlannedTensor> tensors() {
    PlannedTensor[] tensors = new PlannedTensor[(int) numTensors()];
    for (int i = 0; i < tensors.length; ++i) tensors[i] = tensor(i);
    return java.util.List.of(tensors);
  }

  /** Device `index`'s memory (OUT_OF_RANGE from numDevices() on). */
  public PlannedDevice device(long index) {
    return new PlannedDevice(deviceTermBytes(index, PlanTerm.WEIGHTS), deviceTermBytes(index, PlanTerm.KV_CACHE),
                             deviceTermBytes(index, PlanTerm.GRADIENTS),
                             deviceTermBytes(index, PlanTerm.OPTIMIZER_STATE),
                             deviceTermBytes(index, PlanTerm.MASTER_WEIGHTS), devicePeakBytes(index),
                             deviceCapacityBytes(index), deviceVerdict(index));
  }

  /** Every device's memory, in mesh order. */
  public java.util.List<PlannedDevice> devices() {
    PlannedDevice[] devices = new PlannedDevice[(int) numDevices()];
    for (int i = 0; i < devices.length; ++i) devices[i] = device(i);
    return java.util.List.of(devices);
  }

  /**
   * Tries `checkpoint` on every mesh shape of the first map's devices over
   * its axes, with each map's rules (their meshes must have the same axes
   * and devices); `options` may be null (the defaults).
   */
  public static CheckpointPlanSearch search(Checkpoint checkpoint, CheckpointPlanOptions options,
                                            LayoutMap... layoutMaps) {
    long[] addresses = new long[layoutMaps == null ? 0 : layoutMaps.length];
    for (int i = 0; i < addresses.length; ++i) addresses[i] = LayoutMap.getCPtr(layoutMaps[i]);
    try {
      return searchOf(checkpoint, addresses, options);
    } finally {
      java.lang.ref.Reference.reachabilityFence(layoutMaps);
    }
  }
%}
%typemap(javacode) CheckpointPlanSearch %{
  /** Candidate `index` (OUT_OF_RANGE from numCandidates() on). */
  public PlanCandidate candidate(long index) {
    return new PlanCandidate(candidateMeshShape(index), candidateLayoutMap(index), candidatePeakBytes(index),
                             candidateProblem(index));
  }

  /** Every candidate: those that fit first, by their largest device peak, then the rejected. */
  public java.util.List<PlanCandidate> candidates() {
    PlanCandidate[] candidates = new PlanCandidate[(int) numCandidates()];
    for (int i = 0; i < candidates.length; ++i) candidates[i] = candidate(i);
    return java.util.List.of(candidates);
  }
%}

/* ---- issue 13: sharded save and restore --------------------------------------- */

/* The saver collects each shard's direct ByteBuffer and write() hands them
 * all to write_shards in one call (the buffers are pinned for that call
 * only: a ByteBuffer's memory does not move, but the saver keeps no
 * address after a call). The stream form: a JNI trampoline calls a
 * SaveCallbacks (a global reference for the call's duration) on the thread
 * that called stream, which fills a direct ByteBuffer over the saver's own
 * memory. */
%{
typedef struct tessera_java_save {
  JavaVM* vm;
  jobject callbacks; /* global reference to the org.tessera.SaveCallbacks */
  jmethodID fill;
} tessera_java_save;

static bool tessera_java_save_fill(size_t tensor, size_t device, const int64_t* ranges, size_t num_ranges,
                                   int64_t offset, void* out, size_t size, void* user_data) {
  static char empty[1];
  tessera_java_save* s = (tessera_java_save*)user_data;
  JNIEnv* env = tessera_java_env(s->vm);
  jlongArray box;
  jobject view;
  jboolean keep_going = JNI_FALSE;
  if (env == NULL) return false;
  box = (*env)->NewLongArray(env, (jsize)num_ranges);
  if (box != NULL && num_ranges > 0) {
    (*env)->SetLongArrayRegion(env, box, 0, (jsize)num_ranges, (const jlong*)ranges);
  }
  view = box == NULL ? NULL : (*env)->NewDirectByteBuffer(env, size == 0 ? empty : out, (jlong)size);
  if (view != NULL) {
    keep_going = (*env)->CallBooleanMethod(env, s->callbacks, s->fill, (jlong)tensor, (jlong)device, box,
                                           (jlong)offset, view);
    (*env)->DeleteLocalRef(env, view);
  }
  if (box != NULL) (*env)->DeleteLocalRef(env, box);
  /* SaveCallbacks catches the fill's exceptions; anything left (out of
   * memory making the arguments) cancels. */
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    keep_going = JNI_FALSE;
  }
  return keep_going == JNI_TRUE;
}
%}

%typemap(jstype) jobject save_callbacks "SaveCallbacks"
%typemap(javain) jobject save_callbacks "$javainput"
%javamethodmodifiers CheckpointSaver::write_shards "private";
%javamethodmodifiers CheckpointSaver::stream_native "private";
%extend CheckpointSaver {
  /* tessera_checkpoint_saver_stream with `save_callbacks`' fill. */
  void stream_native(JNIEnv* jenv, jobject save_callbacks, tessera_error** out_error) {
    tessera_java_save s;
    jclass type = (*jenv)->GetObjectClass(jenv, save_callbacks);
    if (type == NULL) return;
    s.fill = (*jenv)->GetMethodID(jenv, type, "fill", "(JJ[JJLjava/nio/ByteBuffer;)Z");
    (*jenv)->DeleteLocalRef(jenv, type);
    if (s.fill == NULL || (*jenv)->GetJavaVM(jenv, &s.vm) != JNI_OK) return;
    s.callbacks = (*jenv)->NewGlobalRef(jenv, save_callbacks);
    if (s.callbacks == NULL) return;
    tessera_checkpoint_saver_stream($self, tessera_java_save_fill, &s, out_error);
    (*jenv)->DeleteGlobalRef(jenv, s.callbacks);
  }
}

%typemap(javacode) CheckpointSaver %{
  /* Each (tensor, device)'s buffer until a write succeeds, in the order first set. */
  private final java.util.Map<ShardKey, java.nio.ByteBuffer> shards = new java.util.LinkedHashMap<>();

  private record ShardKey(long tensor, long device) {}

  /**
   * Hands the shard of tensor `tensor` (its position among the added ones)
   * on device `device` for write(): `shard` holds the device's box of the
   * tensor as row-major bytes, little-endian as safetensors stores them,
   * in its whole capacity (its position and limit are not used or changed;
   * a read-only view will do).
   * The saver keeps a reference until a write succeeds; the bytes must not
   * change before. A later call for the same tensor and device replaces
   * the buffer. Only the shards the process stores are written (each
   * distinct shard once, by its first holder); the process's other
   * devices' buffers are checked and ignored.
   *
   * @throws IllegalArgumentException for a null or heap buffer
   */
  public void setShard(long tensor, long device, java.nio.ByteBuffer shard) {
    if (shard == null || !shard.isDirect()) {
      throw new IllegalArgumentException("Argument 'shard' of tensor " + tensor + " on device " + device + " is "
          + (shard == null ? "null" : "a heap ByteBuffer") + "; expected a direct ByteBuffer "
          + "(ByteBuffer.allocateDirect)");
    }
    shards.put(new ShardKey(tensor, device), shard);
  }

  /**
   * Writes the process's file from the buffers of setShard, all in one
   * call, crash-safely; a saver writes once. A shard the process stores
   * without a buffer is FAILED_PRECONDITION; a buffer of the wrong size is
   * INVALID_ARGUMENT naming its position among the set shards, its device
   * and tensor. After a failure the buffers stay set (replace one and write
   * again); after a success the saver holds none.
   */
  public void write() {
    long[] tensors = new long[shards.size()];
    long[] devices = new long[tensors.length];
    java.nio.ByteBuffer[] buffers = new java.nio.ByteBuffer[tensors.length];
    int i = 0;
    for (java.util.Map.Entry<ShardKey, java.nio.ByteBuffer> shard : shards.entrySet()) {
      tensors[i] = shard.getKey().tensor();
      devices[i] = shard.getKey().device();
      buffers[i++] = shard.getValue();
    }
    writeShards(tensors, devices, buffers);
    shards.clear();
  }

  /**
   * Writes the process's file, asking `fill` for the bytes of each piece the
   * process stores (see {@link ShardFill}), crash-safely; a saver writes
   * once. `fill` returning false is CANCELLED; its exception is thrown (the
   * save's error suppressed in it). Buffers of setShard are not used.
   */
  public void stream(ShardFill fill) {
    if (fill == null) {
      throw new TesseraException(Code.INVALID_ARGUMENT, "Argument 'fill' is null; expected a ShardFill");
    }
    SaveCallbacks callbacks = new SaveCallbacks(fill);
    try {
      streamNative(callbacks);
    } catch (RuntimeException e) {
      throw callbacks.rethrow(e);
    }
  }
%}

%typemap(javacode) CheckpointIndex %{
  /** The paths of the checkpoint's files, one per saving process, in process order. */
  public java.util.List<String> files() {
    String[] files = new String[(int) numFiles()];
    for (int i = 0; i < files.length; ++i) files[i] = filePath(i);
    return java.util.List.of(files);
  }

  /** Tensor `index`, in save order (OUT_OF_RANGE from numTensors() on). */
  public StoredTensor tensor(long index) {
    StoredPiece[] pieces = new StoredPiece[(int) tensorNumPieces(index)];
    for (int p = 0; p < pieces.length; ++p) pieces[p] = new StoredPiece(pieceRanges(index, p), pieceFile(index, p));
    return new StoredTensor(tensorName(index), tensorDtype(index), tensorShape(index), java.util.List.of(pieces));
  }

  /** Every tensor, in save order. */
  public java.util.List<StoredTensor> tensors() {
    StoredTensor[] tensors = new StoredTensor[(int) numTensors()];
    for (int i = 0; i < tensors.length; ++i) tensors[i] = tensor(i);
    return java.util.List.of(tensors);
  }
%}
