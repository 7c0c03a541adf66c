// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The boundary between the C ABI and the core. Private to capi/.
//
// Every exported function runs its body through Guard/GuardOr: the body
// returns absl::Status or absl::StatusOr<T>, and the guard turns that into the
// C result (true / the value) or into a tessera_error plus the sentinel, and
// turns any C++ exception into an error too, so none crosses the ABI.
// Bodies that cannot throw (a field read, a destructor) are not wrapped.
//
// The exported definitions cannot be marked noexcept: the public headers
// declare them without it, and C++17 makes a mismatch an error. The guard is
// what keeps exceptions inside.
#ifndef TESSERA_CAPI_GUARD_H_
#define TESSERA_CAPI_GUARD_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "tessera/error.h"

namespace tessera::capi {

// Stores a new error for `status` (not OK) in *out_error; does nothing when
// out_error is NULL. Never throws: without memory for a new error it stores a
// shared static RESOURCE_EXHAUSTED error that tessera_error_destroy skips.
void StoreError(tessera_error** out_error, const absl::Status& status) noexcept;

// The error handed out when even an error cannot be allocated; static, so
// tessera_error_destroy leaves it alone. Defined in error.cc.
extern tessera_error* const kOutOfMemoryError;

// Stores an error describing the exception being handled (INTERNAL, or
// RESOURCE_EXHAUSTED for a failed allocation). Call only inside a catch.
void StoreCurrentException(tessera_error** out_error) noexcept;

namespace internal {

// What a body's result becomes in C: Status -> bool, StatusOr<T> -> T.
template <typename R>
struct Unwrap;
template <>
struct Unwrap<absl::Status> {
  using Type = bool;
  static bool Value(absl::Status&&) { return true; }
  static const absl::Status& StatusOf(const absl::Status& s) { return s; }
};
template <typename T>
struct Unwrap<absl::StatusOr<T>> {
  using Type = T;
  static T Value(absl::StatusOr<T>&& r) { return *std::move(r); }
  static const absl::Status& StatusOf(const absl::StatusOr<T>& r) { return r.status(); }
};

template <typename Body>
using CResult = typename Unwrap<std::invoke_result_t<Body&>>::Type;

}  // namespace internal

// Runs `body`; on failure stores the error and returns `fallback`.
template <typename Body, typename Fallback>
internal::CResult<Body> GuardOr(tessera_error** out_error, Fallback fallback,
                                Body&& body) noexcept {
  using R = std::invoke_result_t<Body&>;
  try {
    R result = body();
    if (result.ok()) return internal::Unwrap<R>::Value(std::move(result));
    StoreError(out_error, internal::Unwrap<R>::StatusOf(result));
  } catch (...) {
    StoreCurrentException(out_error);
  }
  return fallback;
}

// As GuardOr, with the zero value as the sentinel (false, NULL, 0).
template <typename Body>
internal::CResult<Body> Guard(tessera_error** out_error, Body&& body) noexcept {
  return GuardOr(out_error, internal::CResult<Body>{}, std::forward<Body>(body));
}

// INVALID_ARGUMENT "Argument 'mesh' is NULL ..." when `pointer` is NULL.
absl::Status CheckNotNull(const void* pointer, const char* name);

// INVALID_ARGUMENT when `items` is NULL although `count` is not zero.
absl::Status CheckArray(const void* items, size_t count, const char* name,
                        const char* count_name);

// OUT_OF_RANGE "Argument 'index' is 9; expected less than 8 (<what>)".
absl::Status CheckIndex(size_t index, size_t size, const char* name, const char* what);

// CheckNotNull(handle), then CheckIndex(index, count()): `count` runs only
// once the handle is known to be non-NULL.
template <typename Count>
absl::Status CheckNotNullAndIndex(const void* handle, const char* handle_name, size_t index,
                                  const char* index_name, Count&& count, const char* what) {
  TESSERA_RETURN_IF_ERROR(CheckNotNull(handle, handle_name));
  return CheckIndex(index, count(), index_name, what);
}

// A size_t count or position as the core's int64_t: OUT_OF_RANGE "Argument
// 'process_index' is 18446744073709551615; expected at most 9223372036854775807".
absl::StatusOr<int64_t> ToInt64(size_t value, const char* name);

// OUT_OF_RANGE "Argument 'capacity' is 2; expected at least 4" when an output
// array has room for fewer than `needed` entries.
absl::Status CheckCapacity(size_t capacity, size_t needed);

// The one shape of an output array (tessera.h, Vocabulary), once `out` has
// passed CheckArray: the number of entries of the whole answer when the
// caller asks for it (out NULL, capacity 0), else the capacity check, then
// `fill` writes the `needed` entries. `fill` takes absl::Span<T> and returns
// absl::Status; it runs only when there is room.
template <typename T, typename Fill>
absl::StatusOr<size_t> FillOut(T* out, size_t capacity, size_t needed, Fill&& fill) {
  if (out == nullptr && capacity == 0) return needed;
  TESSERA_RETURN_IF_ERROR(CheckCapacity(capacity, needed));
  TESSERA_RETURN_IF_ERROR(fill(absl::MakeSpan(out, needed)));
  return needed;
}

// FillOut with a computed answer, each entry converted to the output type
// (the core's int64_t device indices become size_t positions).
template <typename T, typename U>
absl::StatusOr<size_t> CopyOut(T* out, size_t capacity, const std::vector<U>& answer) {
  return FillOut(out, capacity, answer.size(), [&](absl::Span<T> room) {
    for (size_t i = 0; i < answer.size(); ++i) room[i] = static_cast<T>(answer[i]);
    return absl::OkStatus();
  });
}
template <typename T, typename U>
absl::StatusOr<size_t> CopyOut(T* out, size_t capacity,
                               const absl::StatusOr<std::vector<U>>& answer) {
  TESSERA_RETURN_IF_ERROR(answer.status());
  return CopyOut(out, capacity, *answer);
}
// Bytes: `out` is void* in C.
absl::StatusOr<size_t> CopyOut(void* out, size_t capacity, absl::string_view bytes);

// Half-open ranges as one array, [start0, stop0, start1, stop1, ...] (JAX's
// slice per dimension), the shape every range result has in C.
template <typename Ranges>
std::vector<int64_t> StartStopPairs(const Ranges& ranges) {
  std::vector<int64_t> pairs;
  pairs.reserve(2 * ranges.size());
  for (const auto& range : ranges) {
    pairs.push_back(range.start);
    pairs.push_back(range.stop);
  }
  return pairs;
}

// Copies `count` C strings; INVALID_ARGUMENT naming "axis_names[2]" for a
// NULL entry (after CheckArray on the array itself).
absl::StatusOr<std::vector<std::string>> CopyStrings(const char* const* items, size_t count,
                                                     const char* name, const char* count_name);

// The integer a caller passed for a C enum. Read through memcpy, not as the
// enum type, so an out-of-range value is data to reject rather than UB.
template <typename E>
int32_t RawEnum(const E& value) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int32_t));
  int32_t raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

// INVALID_ARGUMENT naming the argument, the value and the accepted names
// unless 0 <= raw < names.size() (enumerators numbered from 0 in order).
absl::Status CheckEnum(int32_t raw, absl::Span<const char* const> names, const char* name);

// A C enum argument as the core enum with the same numbers, or the error of
// CheckEnum.
template <typename Core, typename E>
absl::StatusOr<Core> ToCoreEnum(const E& value, absl::Span<const char* const> names,
                                const char* name) {
  const int32_t raw = RawEnum(value);
  TESSERA_RETURN_IF_ERROR(CheckEnum(raw, names, name));
  return static_cast<Core>(raw);
}

}  // namespace tessera::capi

// The argument's own spelling names it in the message, so the text always
// matches the parameter name in the header.
#define TESSERA_CAPI_REQUIRE(arg) \
  TESSERA_RETURN_IF_ERROR(::tessera::capi::CheckNotNull((arg), #arg))
#define TESSERA_CAPI_REQUIRE_ARRAY(arg, count) \
  TESSERA_RETURN_IF_ERROR(::tessera::capi::CheckArray((arg), (count), #arg, #count))

// The whole body of an accessor (a function with an `out_error` parameter):
// the expression's value once `check` passes, else the error and the zero
// value of the return type. The expression is evaluated only after the check,
// so it may dereference what the check guards.
#define TESSERA_CAPI_GET_IF(check, ...)                                                   \
  ::tessera::capi::Guard(out_error,                                                        \
                         [&]() -> absl::StatusOr<std::decay_t<decltype(__VA_ARGS__)>> { \
                           TESSERA_RETURN_IF_ERROR(check);                                \
                           return __VA_ARGS__;                                            \
                         })
// An accessor of a handle: INVALID_ARGUMENT "Argument 'mesh' is NULL ..." first.
#define TESSERA_CAPI_GET(handle, ...) \
  TESSERA_CAPI_GET_IF(::tessera::capi::CheckNotNull((handle), #handle), __VA_ARGS__)
// An accessor by position: the handle, then OUT_OF_RANGE unless index < count
// (`count` may dereference the handle; `what` names the range in the message).
#define TESSERA_CAPI_GET_AT(handle, index, count, what, ...)                    \
  TESSERA_CAPI_GET_IF(::tessera::capi::CheckNotNullAndIndex(                    \
                          (handle), #handle, (index), #index,                    \
                          [&]() -> size_t { return (count); }, (what)),          \
                      __VA_ARGS__)

// The whole body of a function returning an output array in the one shape
// (tessera.h, Vocabulary): its parameters are named `out`, `capacity` and
// `out_error`; after `check`, INVALID_ARGUMENT for a NULL `out` with a
// capacity, then the answer (a std::vector, a StatusOr of one, or bytes)
// goes through CopyOut. The answer is computed only after the checks.
#define TESSERA_CAPI_ARRAY_IF(check, ...)                                         \
  ::tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<size_t> {            \
    TESSERA_RETURN_IF_ERROR(check);                                              \
    TESSERA_RETURN_IF_ERROR(                                                     \
        ::tessera::capi::CheckArray(out, capacity, "out", "capacity"));          \
    return ::tessera::capi::CopyOut(out, capacity, __VA_ARGS__);                  \
  })
// An output array of a handle: INVALID_ARGUMENT "Argument 'mesh' is NULL ..." first.
#define TESSERA_CAPI_ARRAY(handle, ...) \
  TESSERA_CAPI_ARRAY_IF(::tessera::capi::CheckNotNull((handle), #handle), __VA_ARGS__)
namespace tessera::capi {

// The whole body of an options setter: INVALID_ARGUMENT for a NULL handle,
// then `set(*options)`, whose status is the answer.
template <typename Options, typename Set>
bool SetOption(Options* options, tessera_error** out_error, Set&& set) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    return set(*options);
  });
}

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_GUARD_H_
