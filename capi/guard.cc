// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Error plumbing and argument checks shared by every exported function.
#include "capi/guard.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "capi/error_detail.h"
#include "capi/handles.h"

namespace tessera::capi {

void StoreError(tessera_error** out_error, const absl::Status& status) noexcept {
  if (out_error == nullptr) return;
  try {
    // Same numbers as absl::StatusCode (static_asserts in error.cc).
    *out_error = new tessera_error{static_cast<tessera_code_t>(status.code()),
                                   std::string(status.message()), ErrorDetailOf(status)};
  } catch (...) {
    *out_error = kOutOfMemoryError;
  }
}

namespace {

absl::Status StatusOfCurrentException() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory");
  } catch (const std::length_error& e) {
    // A size beyond what a container can hold: also a lack of memory.
    return absl::ResourceExhaustedError(absl::StrCat("out of memory: ", e.what()));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return absl::InternalError("internal error: unknown exception");
  }
}

}  // namespace

void StoreCurrentException(tessera_error** out_error) noexcept {
  try {
    StoreError(out_error, StatusOfCurrentException());
  } catch (...) {
    // Describing the exception needed memory there was none of.
    if (out_error != nullptr) *out_error = kOutOfMemoryError;
  }
}

absl::Status CheckNotNull(const void* pointer, const char* name) {
  if (pointer != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Argument '", name, "' is NULL; expected a valid pointer"));
}

absl::Status CheckArray(const void* items, size_t count, const char* name,
                        const char* count_name) {
  if (items != nullptr || count == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' is NULL but '",
                                                 count_name, "' is ", count,
                                                 "; expected an array of ", count, " entries"));
}

absl::Status CheckIndex(size_t index, size_t size, const char* name, const char* what) {
  if (index < size) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat("Argument '", name, "' is ", index,
                                            "; expected less than ", size, " (", what, ")"));
}

absl::StatusOr<int64_t> ToInt64(size_t value, const char* name) {
  constexpr size_t kMax = static_cast<size_t>(std::numeric_limits<int64_t>::max());
  if (value <= kMax) return static_cast<int64_t>(value);
  return absl::OutOfRangeError(
      absl::StrCat("Argument '", name, "' is ", value, "; expected at most ", kMax));
}

absl::Status CheckCapacity(size_t capacity, size_t needed) {
  if (capacity >= needed) return absl::OkStatus();
  return absl::OutOfRangeError(
      absl::StrCat("Argument 'capacity' is ", capacity, "; expected at least ", needed));
}

absl::StatusOr<size_t> CopyOut(void* out, size_t capacity, absl::string_view bytes) {
  return FillOut(static_cast<char*>(out), capacity, bytes.size(), [&](absl::Span<char> room) {
    std::copy(bytes.begin(), bytes.end(), room.begin());
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> CopyStrings(const char* const* items, size_t count,
                                                     const char* name, const char* count_name) {
  TESSERA_RETURN_IF_ERROR(CheckArray(items, count, name, count_name));
  std::vector<std::string> copies;
  copies.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (items[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument '", name, "[", i, "]' is NULL; expected a NUL-terminated string"));
    }
    copies.emplace_back(items[i]);
  }
  return copies;
}

absl::Status CheckEnum(int32_t raw, absl::Span<const char* const> names, const char* name) {
  if (raw >= 0 && static_cast<size_t>(raw) < names.size()) return absl::OkStatus();
  std::vector<std::string> accepted;
  for (size_t i = 0; i < names.size(); ++i) {
    accepted.push_back(absl::StrCat(names[i], " (", i, ")"));
  }
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' is ", raw,
                                                 "; expected one of ",
                                                 absl::StrJoin(accepted, ", ")));
}

}  // namespace tessera::capi
