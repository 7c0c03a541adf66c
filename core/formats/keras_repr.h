// Python/Keras repr strings, so a C or Go caller sees what a Keras user sees.
#ifndef TESSERA_CORE_FORMATS_KERAS_REPR_H_
#define TESSERA_CORE_FORMATS_KERAS_REPR_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

class DeviceMesh;
class TensorLayout;
class Distribution;

// Python's repr of a str: 'abc', "it's", with escapes for quotes,
// backslashes and control characters.
std::string PyStrRepr(absl::string_view s);
// ['a', 'b']
std::string PyStrListRepr(absl::Span<const std::string> items);
// {'a', 'b'} (sorted, since Python's set order is unspecified); set() if empty.
std::string PyStrSetRepr(std::vector<std::string> items);
// A layout dimension as Keras prints it: None, 'model' or ('data', 'model').
std::string PyAxisGroupRepr(absl::Span<const std::string> group);
// A layout's axes tuple: ('data', None), ('model',), ().
std::string PyAxesRepr(absl::Span<const std::vector<std::string>> axes);

std::string KerasRepr(const DeviceMesh& mesh);
std::string KerasRepr(const TensorLayout& layout);
std::string KerasRepr(const Distribution& distribution);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_KERAS_REPR_H_
