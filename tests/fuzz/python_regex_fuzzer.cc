// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python `re` patterns translated for RE2: never a crash; whenever the
// translation succeeds RE2 compiles it (only RE2's program-size limit may
// still refuse it); both match modes accept and refuse the same patterns.
#include "core/python_regex.h"
#include "re2/re2.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  const absl::string_view pattern = fuzz::AsText(data, size);
  const absl::StatusOr<std::string> search = TranslatePythonRegex(pattern, PythonRegexUse::kSearch);
  const absl::StatusOr<std::string> full = TranslatePythonRegex(pattern, PythonRegexUse::kFullMatch);
  fuzz::Check(search.ok() == full.ok());
  if (!search.ok()) {
    fuzz::CheckRejection(search.status());
    fuzz::Check(search.status().code() == absl::StatusCode::kInvalidArgument);
    fuzz::Check(search.status() == full.status());
    return 0;
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(int64_t{256} << 20);  // as the layout map compiles
  for (const std::string* translated : {&*search, &*full}) {
    const RE2 re(*translated, options);
    fuzz::Check(re.ok() || re.error_code() == RE2::ErrorPatternTooLarge);
  }
  return 0;
}
