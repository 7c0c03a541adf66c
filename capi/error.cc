// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/error.h: the error object and the code names.
#include "absl/status/status.h"
#include "capi/guard.h"
#include "capi/handles.h"

namespace tessera::capi {
namespace {

// tessera_code_t is absl::StatusCode with a C name: StoreError casts between them.
#define TESSERA_SAME_CODE(c_code, absl_code) \
  static_assert(static_cast<int>(c_code) == static_cast<int>(absl::StatusCode::absl_code))
TESSERA_SAME_CODE(TESSERA_OK, kOk);
TESSERA_SAME_CODE(TESSERA_CANCELLED, kCancelled);
TESSERA_SAME_CODE(TESSERA_UNKNOWN, kUnknown);
TESSERA_SAME_CODE(TESSERA_INVALID_ARGUMENT, kInvalidArgument);
TESSERA_SAME_CODE(TESSERA_DEADLINE_EXCEEDED, kDeadlineExceeded);
TESSERA_SAME_CODE(TESSERA_NOT_FOUND, kNotFound);
TESSERA_SAME_CODE(TESSERA_ALREADY_EXISTS, kAlreadyExists);
TESSERA_SAME_CODE(TESSERA_PERMISSION_DENIED, kPermissionDenied);
TESSERA_SAME_CODE(TESSERA_RESOURCE_EXHAUSTED, kResourceExhausted);
TESSERA_SAME_CODE(TESSERA_FAILED_PRECONDITION, kFailedPrecondition);
TESSERA_SAME_CODE(TESSERA_ABORTED, kAborted);
TESSERA_SAME_CODE(TESSERA_OUT_OF_RANGE, kOutOfRange);
TESSERA_SAME_CODE(TESSERA_UNIMPLEMENTED, kUnimplemented);
TESSERA_SAME_CODE(TESSERA_INTERNAL, kInternal);
TESSERA_SAME_CODE(TESSERA_UNAVAILABLE, kUnavailable);
TESSERA_SAME_CODE(TESSERA_DATA_LOSS, kDataLoss);
TESSERA_SAME_CODE(TESSERA_UNAUTHENTICATED, kUnauthenticated);
#undef TESSERA_SAME_CODE

// Indexed by code number.
constexpr const char* kCodeNames[] = {
    "OK",          "CANCELLED",        "UNKNOWN",           "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS",    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL",       "UNAVAILABLE",       "DATA_LOSS",
    "UNAUTHENTICATED",
};
static_assert(sizeof(kCodeNames) / sizeof(kCodeNames[0]) == TESSERA_UNAUTHENTICATED + 1);

tessera_error out_of_memory_error{TESSERA_RESOURCE_EXHAUSTED, "out of memory"};

}  // namespace

tessera_error* const kOutOfMemoryError = &out_of_memory_error;

}  // namespace tessera::capi

tessera_code_t tessera_error_code(const tessera_error* error) noexcept {
  return error == nullptr ? TESSERA_OK : error->code;
}

const char* tessera_error_message(const tessera_error* error) noexcept {
  return error == nullptr ? "" : error->message.c_str();
}

const char* tessera_code_name(tessera_code_t code) noexcept {
  const int32_t raw = tessera::capi::RawEnum(code);
  if (raw < 0 || raw > TESSERA_UNAUTHENTICATED) return nullptr;
  return tessera::capi::kCodeNames[raw];
}

void tessera_error_destroy(tessera_error* error) noexcept {
  if (error != tessera::capi::kOutOfMemoryError) delete error;
}
