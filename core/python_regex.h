// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python `re` patterns run on RE2.
//
// Keras matches LayoutMap keys with Python's `re` (re.search, or re.fullmatch
// from Keras 3.14); Tessera matches with RE2, whose syntax and meanings
// differ. TranslatePythonRegex parses a pattern the way CPython 3.11's
// re._parser does (a str pattern, no flags argument), so it refuses what
// Python refuses with Python's message, and writes an RE2 pattern that
// matches exactly the strings the Python pattern matches (as a yes/no answer:
// captures and match spans are not preserved). Python constructs RE2 cannot
// express are refused naming the construct and its byte offset.
//
// docs/python-regex.md tables every difference between the two syntaxes and
// what Tessera does about it; tests/core/python_regex_test.cc tests each row.
//
// Characters are Unicode code points: the pattern must be UTF-8 and paths are
// matched as UTF-8. Unicode properties come from RE2's tables and Python's
// unicodedata (14.0 for Python 3.11); characters assigned in later Unicode
// versions may differ.
#ifndef TESSERA_CORE_PYTHON_REGEX_H_
#define TESSERA_CORE_PYTHON_REGEX_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera {

// How the translated pattern will be run: `$` rewrites differently when the
// match must also end at the end of the text.
enum class PythonRegexUse {
  kSearch,     // re.search: RE2 unanchored
  kFullMatch,  // re.fullmatch: RE2 anchored at both ends
};

// The RE2 pattern with the meaning Python's `re` gives `pattern`.
// INVALID_ARGUMENT, with a message to follow "Argument 'key' <repr> is ":
//   "not a valid Python regular expression: <Python's message> at position
//    <code point index>[ (byte <offset>)]" for what Python refuses;
//   "a Python regular expression RE2 cannot run: <construct> at byte
//    <offset> (<why, and what to write instead>)" for what RE2 cannot express.
// The result is always valid RE2 syntax; only RE2's program-size limit
// (max_mem) can still refuse it.
absl::StatusOr<std::string> TranslatePythonRegex(absl::string_view pattern, PythonRegexUse use);

}  // namespace tessera

#endif  // TESSERA_CORE_PYTHON_REGEX_H_
