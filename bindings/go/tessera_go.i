/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The Go half of the SWIG interface. ../tessera.i includes this file (under
 * `#if defined(SWIGGO)`) before the common declarations, so these typemaps
 * apply to every shadow class and method declared there.
 *
 * Run as `swig -go -cgo -intgosize 64 -package swig -module tessera`: the
 * output is the low layer, package internal/swig of the Go module; the
 * idiomatic package (bindings/go/tessera) is hand-written over it, following
 * SWIG's Go chapter ("wrap the swig-generated API with some additional
 * functions written in go that hide the ugly details").
 *
 * What this file provides to ../tessera.i:
 *   - TESSERA_SWIG_CUSTOM_ERRORS: Go has no exceptions (SWIG would panic).
 *     `tessera_error** out_error` stays a visible parameter of type []uintptr:
 *     the C function stores the new error in element 0, and the idiomatic
 *     layer turns it into a *tessera.Error (and destroys it). A nil slice
 *     passes NULL. No error state lives anywhere but in that slice.
 *   - The (pointer, count) inputs of the contract: []int64, []string, []byte.
 *     Go memory is handed to C for the call only and holds no Go pointers,
 *     as cgo's pointer rules require. A []string holds Go pointers, so it
 *     crosses as one packed string and is unpacked into a char* array in C.
 *   - The owned results: tessera_buffer* -> []byte, tessera_swig_text* ->
 *     string, tessera_swig_int64s -> []int64, tessera_swig_bytes -> []byte; every copy is sized in 64 bits (SWIG's
 *     own swigCopyString stops at 2 GiB).
 *   - Method names in Go's MixedCaps (axis_size -> AxisSize).
 *   - The log callback: a C trampoline that forwards to an //export'ed Go
 *     function (internal/swig/log.go), installed by GoSetLogCallback.
 */

/* ---- names ------------------------------------------------------------- */

/* Only functions: types keep the common file's names, and enum items keep
   their C names (the idiomatic layer has its own Go constants, tested equal). */
%rename("%(camelcase)s", %$isfunction) "";

/* ---- errors --------------------------------------------------------------- */

#define TESSERA_SWIG_CUSTOM_ERRORS

%typemap(gotype) tessera_error** out_error "[]uintptr"
%typemap(in) tessera_error** out_error %{
  $1 = $input.len > 0 ? (tessera_error**)$input.array : NULL;
%}

/* What the idiomatic layer reads from an error handle, then destroys. The
   handle travels as a uintptr (void* in C): it never points to Go memory. */
%inline %{
static int32_t go_error_code(void* error) {
  return (int32_t)tessera_error_code((const tessera_error*)error);
}
static const char* go_error_message(void* error) {
  return tessera_error_message((const tessera_error*)error);
}
static void go_error_destroy(void* error) { tessera_error_destroy((tessera_error*)error); }
%}

#if !defined(TESSERA_SWIG_NO_CLUSTER)
/* The cluster details of an error (reason, source, missing and arrived
   processes): tessera/client.h. */
%inline %{
static int32_t go_error_reason(void* error) {
  return (int32_t)tessera_error_reason((const tessera_error*)error, NULL);
}
static int64_t go_error_source_process(void* error) {
  return tessera_error_source_process((const tessera_error*)error, NULL);
}
static size_t go_error_missing_count(void* error) {
  return tessera_error_num_missing((const tessera_error*)error, NULL);
}
static int64_t go_error_missing_process(void* error, size_t index) {
  return tessera_error_missing_process((const tessera_error*)error, index, NULL);
}
static int32_t go_error_missing_state(void* error, size_t index) {
  return (int32_t)tessera_error_missing_state((const tessera_error*)error, index, NULL);
}
static const char* go_error_missing_waiting_at(void* error, size_t index) {
  return tessera_error_missing_waiting_at((const tessera_error*)error, index, NULL);
}
static size_t go_error_arrived_count(void* error) {
  return tessera_error_num_arrived((const tessera_error*)error, NULL);
}
static int64_t go_error_arrived_process(void* error, size_t index) {
  return tessera_error_arrived_process((const tessera_error*)error, index, NULL);
}
%}
#endif

/* ---- the log callback ------------------------------------------------------ */

/* One C trampoline forwards every message to tesseraGoLog, an //export'ed Go
   function of this package (internal/swig/log.go), which calls the Go handler
   set there. user_data is unused: a Go value may not be kept by C, so the
   handler lives on the Go side. The trampoline can run on any thread,
   library threads included; cgo attaches them to the Go runtime. */
%{
extern void tesseraGoLog(int32_t level, char* message, size_t message_size);

static void tessera_go_log_trampoline(tessera_log_level_t level, const char* message,
                                      size_t message_size, void* user_data) {
  (void)user_data;
  tesseraGoLog((int32_t)level, (char*)message, message_size);
}
%}

%inline %{
/* install: the trampoline for messages of min_level and above; otherwise
   the library's default (stderr, warnings and above). */
static bool go_set_log_callback(bool install, int32_t min_level, tessera_error** out_error) {
  return tessera_log_set_callback(install ? tessera_go_log_trampoline : NULL, NULL,
                                  (tessera_log_level_t)min_level, out_error);
}
%}

/* ---- (pointer, count) inputs --------------------------------------------- */

/* []int64 and []byte: the slice's own memory for the call (no copy); nil is
   (NULL, 0). */
%typemap(gotype) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) "[]int64"
%typemap(in) (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) %{
  $1 = ($1_ltype)$input.array;
  $2 = (size_t)$input.len;
%}

%typemap(gotype) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) "[]byte"
%typemap(in) (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) %{
  $1 = ($1_ltype)$input.array;
  $2 = (size_t)$input.len;
%}

/* []string: packed in Go as 0x01 followed by every entry and a NUL after
   each ("" for a nil slice, which C receives as NULL); unpacked in C into an
   array of pointers into that string, valid for the call. The idiomatic
   layer rejects entries that contain a NUL byte before calling. */
%insert(go_wrapper) %{
func tesseraGoPackStrings(s []string) string {
	if s == nil {
		return ""
	}
	n := 1
	for _, e := range s {
		n += len(e) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, 1)
	for _, e := range s {
		b = append(b, e...)
		b = append(b, 0)
	}
	return unsafe.String(&b[0], len(b))
}
%}

%typemap(gotype) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "[]string"
%typemap(imtype) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) "string"
%typemap(goin) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) %{
	$result = tesseraGoPackStrings($input)
%}
%typemap(in) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) %{
  $1 = NULL;
  $2 = 0;
  if ($input.n > 0) {
    const char* packed = $input.p + 1;
    const char* end = $input.p + $input.n;
    const char* p;
    const char** entries;
    size_t count = 0, i = 0;
    for (p = packed; p < end; ++p) count += *p == '\0';
    entries = (const char**)malloc((count > 0 ? count : 1) * sizeof(const char*));
    if (entries == NULL) {
      _swig_gopanic("tessera: out of memory unpacking a []string");
    }
    for (p = packed; i < count; ++i) {
      entries[i] = p;
      p += strlen(p) + 1;
    }
    $1 = ($1_ltype)entries;
    $2 = count;
  }
%}
%typemap(freearg) (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) %{
  free((void*)$1);
%}

/* ---- owned results ---------------------------------------------------------- */

/* C hands Go a malloc'd copy as a slice; Go copies it into Go memory and
   frees the C copy. A NULL result (the call failed) is a nil slice. */
%{
static _goslice_ tessera_go_copy_out(const void* data, size_t size) {
  _goslice_ s;
  s.array = NULL;
  s.len = 0;
  s.cap = 0;
  if (data == NULL) return s;
  s.array = malloc(size > 0 ? size : 1);
  if (s.array == NULL) _swig_gopanic("tessera: out of memory copying a result");
  if (size > 0) memcpy(s.array, data, size);
  s.len = s.cap = (intgo)size;
  return s;
}
%}

%insert(go_wrapper) %{
func tesseraGoTakeBytes(s []byte) []byte {
	if s == nil {
		return nil
	}
	b := make([]byte, len(s))
	copy(b, s)
	Swig_free(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
	return b
}

func tesseraGoTakeInt64s(s []int64) []int64 {
	if s == nil {
		return nil
	}
	b := make([]int64, len(s))
	copy(b, s)
	Swig_free(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
	return b
}

func tesseraGoTakeString(s []byte) string {
	b := tesseraGoTakeBytes(s)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
%}

%typemap(gotype) tessera_buffer* "[]byte"
%typemap(imtype) tessera_buffer* "[]byte"
%typemap(out) tessera_buffer* %{
  $result = tessera_go_copy_out(tessera_buffer_data($1), tessera_buffer_size($1));
  tessera_buffer_destroy($1);
%}
%typemap(goout) tessera_buffer* %{ $result = tesseraGoTakeBytes($1) %}

%typemap(gotype) tessera_swig_text* "string"
%typemap(imtype) tessera_swig_text* "[]byte"
%typemap(out) tessera_swig_text* %{
  $result = tessera_go_copy_out(tessera_buffer_data($1), tessera_buffer_size($1));
  tessera_buffer_destroy($1);
%}
%typemap(goout) tessera_swig_text* %{ $result = tesseraGoTakeString($1) %}

/* The wrapper's malloc'd array changes hands as it is. */
%typemap(gotype) tessera_swig_int64s "[]int64"
%typemap(imtype) tessera_swig_int64s "[]int64"
%typemap(out) tessera_swig_int64s %{
  $result.array = $1.data;
  $result.len = $result.cap = $1.data == NULL ? 0 : (intgo)$1.size;
  if ($1.data == NULL && $1.size > 0) _swig_gopanic("tessera: out of memory for an int64 result");
%}
%typemap(goout) tessera_swig_int64s %{ $result = tesseraGoTakeInt64s($1) %}

/* Bytes the wrapper malloc'd (tessera_swig_bytes: scatter, gather, key-value
   lists) change hands as they are, like tessera_swig_int64s. */
%typemap(gotype) tessera_swig_bytes "[]byte"
%typemap(imtype) tessera_swig_bytes "[]byte"
%typemap(out) tessera_swig_bytes %{
  $result.array = $1.data;
  $result.len = $result.cap = $1.data == NULL ? 0 : (intgo)$1.size;
  if ($1.data == NULL && $1.size > 0) _swig_gopanic("tessera: out of memory for a byte result");
%}
%typemap(goout) tessera_swig_bytes %{ $result = tesseraGoTakeBytes($1) %}

/* ---- issue 12: loading into [][]byte ----------------------------------------- */

/* [][]byte: each inner slice's memory for the call. The idiomatic layer pins
   every inner slice (runtime.Pinner) before the call and unpins after it, as
   cgo's rules require for Go memory holding Go pointers handed to C; the
   load is synchronous, so C keeps none of them. The pointer and size arrays
   are C's, freed after the call. */
%typemap(gotype) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) "[][]byte"
%typemap(in) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) %{
  $1 = NULL;
  $2 = NULL;
  $3 = 0;
  if ($input.len > 0) {
    const _goslice_* slices = (const _goslice_*)$input.array;
    size_t i, n = (size_t)$input.len;
    void** pointers = (void**)malloc(n * sizeof(void*));
    size_t* sizes = (size_t*)malloc(n * sizeof(size_t));
    if (pointers == NULL || sizes == NULL) {
      free(pointers);
      free(sizes);
      _swig_gopanic("tessera: out of memory passing a [][]byte");
    }
    for (i = 0; i < n; ++i) {
      pointers[i] = slices[i].array;
      sizes[i] = (size_t)slices[i].len;
    }
    $1 = ($1_ltype)pointers;
    $2 = ($2_ltype)sizes;
    $3 = n;
  }
%}
%typemap(freearg) (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) %{
  free((void*)$1);
  free((void*)$2);
%}

/* The load's callbacks: C trampolines that forward to //export'ed Go
   functions (internal/swig/load.go) with a cgo.Handle of the load's Go
   callbacks as user_data (a number, never a Go pointer kept by C). They run
   on the loader threads, which cgo attaches to the Go runtime for the call. */
%{
extern int tesseraGoReadPiece(uintptr_t handle, size_t piece, int64_t offset, void* bytes, size_t size);
extern int tesseraGoReadProgress(uintptr_t handle, int64_t bytes_done, int64_t bytes_total);

static bool tessera_go_read_piece(size_t piece, int64_t offset, const void* bytes, size_t size, void* user_data) {
  return tesseraGoReadPiece((uintptr_t)user_data, piece, offset, (void*)bytes, size) != 0;
}

static bool tessera_go_read_progress(int64_t bytes_done, int64_t bytes_total, void* user_data) {
  return tesseraGoReadProgress((uintptr_t)user_data, bytes_done, bytes_total) != 0;
}
%}

%inline %{
/* tessera_read_plan_execute with the progress trampoline (handle != 0);
   the bytes read. */
static int64_t go_read_plan_execute(void* plan, void* const* TESSERA_BUFFERS_OUT,
                                    const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT,
                                    uintptr_t handle, tessera_error** out_error) {
  int64_t bytes_read = 0;
  tessera_read_plan_execute((const tessera_read_plan*)plan, TESSERA_BUFFERS_OUT, TESSERA_BUFFERS_OUT_SIZES,
                            TESSERA_BUFFERS_OUT_COUNT, handle != 0 ? tessera_go_read_progress : NULL,
                            (void*)handle, &bytes_read, out_error);
  return bytes_read;
}

/* tessera_read_plan_stream with the piece trampoline, and the
   progress one when progress is true; the bytes read. */
static int64_t go_read_plan_stream(void* plan, uintptr_t handle, bool progress,
                                             tessera_error** out_error) {
  int64_t bytes_read = 0;
  tessera_read_plan_stream((const tessera_read_plan*)plan, tessera_go_read_piece, (void*)handle,
                                     progress ? tessera_go_read_progress : NULL, (void*)handle, &bytes_read,
                                     out_error);
  return bytes_read;
}
%}

/* ---- issue 13: a save's fill callback ------------------------------------------- */

/* tessera_checkpoint_saver_stream's fill: a C trampoline that forwards to
   tesseraGoSaveFill, //export'ed in internal/swig/save.go, with a cgo.Handle
   of the save's Go callback as user_data (as the load's callbacks). `out`
   is the saver's memory, valid for the call only; the ranges are copied to
   Go before the callback sees them. */
%{
extern int tesseraGoSaveFill(uintptr_t handle, size_t tensor, size_t device, int64_t* ranges, size_t num_ranges,
                             int64_t offset, void* out, size_t size);

static bool tessera_go_save_fill(size_t tensor, size_t device, const int64_t* ranges, size_t num_ranges,
                                 int64_t offset, void* out, size_t size, void* user_data) {
  return tesseraGoSaveFill((uintptr_t)user_data, tensor, device, (int64_t*)ranges, num_ranges, offset, out,
                           size) != 0;
}
%}

%inline %{
/* tessera_checkpoint_saver_stream with the fill trampoline. */
static void go_checkpoint_saver_stream(void* saver, uintptr_t handle, tessera_error** out_error) {
  tessera_checkpoint_saver_stream((tessera_checkpoint_saver*)saver, tessera_go_save_fill, (void*)handle, out_error);
}
%}
