// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python repr strings of plain values (str, lists, tuples, sets, None), so a
// C or Go caller sees what a Python user sees. A leaf: it knows none of
// Tessera's types; each type's ToString composes these.
#ifndef TESSERA_CORE_PY_REPR_H_
#define TESSERA_CORE_PY_REPR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

// Python's repr of a str: 'abc', "it's", with escapes for quotes,
// backslashes and control characters.
std::string PyStrRepr(absl::string_view s);
// ['a', 'b']
std::string PyStrListRepr(absl::Span<const std::string> items);
// [2, -1]
std::string PyIntListRepr(absl::Span<const int64_t> values);
// {'a', 'b'} (sorted, since Python's set order is unspecified); set() if empty.
std::string PyStrSetRepr(std::vector<std::string> items);
// A tuple of items already in repr form: (), ('a',), ('a', None).
std::string PyTupleRepr(absl::Span<const std::string> item_reprs);
// ('dp', 'tp'), ('tp',)
std::string PyStrTupleRepr(absl::Span<const std::string> items);
// A layout dimension as Keras prints it: None, 'model' or ('data', 'model').
std::string PyAxisGroupRepr(absl::Span<const std::string> group);
// A layout's axes tuple: ('data', None), ('model',), ().
std::string PyAxesRepr(absl::Span<const std::vector<std::string>> axes);

}  // namespace tessera

#endif  // TESSERA_CORE_PY_REPR_H_
